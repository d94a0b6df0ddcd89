import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from '@vj/contracts';
import type { WebhookAttemptEntity } from '../database/webhook-attempt.entity';
import type { WebhookDeliveryEntity } from '../database/webhook-delivery.entity';
import type { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';

// The REST shapes of the rows (webhook-types.ts in libs/contracts); a secret only where it is shown once.

export function endpointView(row: WebhookEndpointEntity, now: Date): WebhookEndpoint {
  const graceRunning = row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now;
  return {
    id: row.endpoint_id,
    url: row.url,
    events: [...row.events],
    job_id: row.job_id,
    enabled: row.disabled_at === null,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at.toISOString(),
    previous_secret_expires_at: graceRunning ? row.previous_secret_expires_at!.toISOString() : null,
  };
}

export function endpointWithSecret(row: WebhookEndpointEntity, now: Date): WebhookEndpointWithSecret {
  return { ...endpointView(row, now), secret: row.secret };
}

export function deliveryView(row: WebhookDeliveryEntity, attempts: readonly WebhookAttemptEntity[]): WebhookDelivery {
  return {
    id: row.delivery_id,
    endpoint_id: row.endpoint_id,
    event_type: row.event_type,
    job_id: row.job_id,
    state: row.state,
    attempts: attempts.map(attemptView),
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}

function attemptView(row: WebhookAttemptEntity): WebhookAttempt {
  return {
    attempted_at: row.attempted_at.toISOString(),
    status_code: row.status_code,
    error: row.error,
    duration_ms: row.duration_ms,
    response_body: row.response_body,
  };
}
