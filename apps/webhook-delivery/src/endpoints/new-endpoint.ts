import { randomUUID } from 'node:crypto';
import type { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';

// A new endpoint row: enabled, no rotation under way.
export function newEndpoint(values: Pick<WebhookEndpointEntity, 'account_id' | 'url' | 'events' | 'job_id' | 'secret' | 'created_at'>): WebhookEndpointEntity {
  return {
    endpoint_id: randomUUID(),
    ...values,
    previous_secret: null,
    previous_secret_expires_at: null,
    disabled_at: null,
    disabled_reason: null,
    deleted_at: null,
  };
}
