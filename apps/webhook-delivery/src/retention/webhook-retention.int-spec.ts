import { randomUUID } from 'node:crypto';
import { createDatabase } from '@vj/local-stack';
import type { DataSource } from 'typeorm';
import { WebhookAttemptEntity } from '../database/webhook-attempt.entity';
import { WebhookDeliveryEntity } from '../database/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';
import { createWebhooksDataSource } from '../database/webhooks-data-source';
import { runWebhooksMigrations } from '../database/run-webhooks-migrations';
import { newWebhookSecret } from '../domain/endpoint-secrets';
import { WebhookRetention } from './webhook-retention';

const DAY = 24 * 3600_000;

describe('WebhookRetention', () => {
  let dataSource: DataSource;
  const now = new Date('2026-11-24T00:00:00Z');
  const ago = (days: number) => new Date(now.getTime() - days * DAY);

  beforeAll(async () => {
    dataSource = await createWebhooksDataSource(await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'webhooks_retention')).initialize();
    await runWebhooksMigrations(dataSource);
  });

  afterAll(() => dataSource?.destroy());

  const endpoint = async (overrides: Partial<WebhookEndpointEntity>) => {
    const endpoint_id = randomUUID();
    await dataSource.manager.insert(WebhookEndpointEntity, {
      endpoint_id, account_id: randomUUID(), url: 'https://hooks.example.com/x', events: ['job.completed'], job_id: null, secret: newWebhookSecret(),
      previous_secret: null, previous_secret_expires_at: null, disabled_at: null, disabled_reason: null, deleted_at: null, created_at: ago(30), ...overrides,
    });
    return endpoint_id;
  };
  const delivery = async (endpoint_id: string, created_at: Date, next_attempt_at: Date | null) => {
    const delivery_id = randomUUID();
    await dataSource.manager.insert(WebhookDeliveryEntity, {
      delivery_id, endpoint_id, source_id: randomUUID(), event_type: 'job.completed', job_id: randomUUID(), body: '{}',
      state: next_attempt_at ? 'failed' : 'delivered', failed_attempts: 0, next_attempt_at, claimed_until: null, created_at,
    });
    await dataSource.manager.insert(WebhookAttemptEntity, { delivery_id, attempted_at: created_at, status_code: 200, error: null, duration_ms: 1, response_body: '' });
    return delivery_id;
  };

  it('deletes settled deliveries past the retention with their attempts, then job and deleted endpoints left empty', async () => {
    const kept = await endpoint({});
    const oldSettled = await delivery(kept, ago(8), null);
    const recentSettled = await delivery(kept, ago(1), null);
    const oldPending = await delivery(kept, ago(8), now);
    const jobEndpoint = await endpoint({ job_id: randomUUID() });
    await delivery(jobEndpoint, ago(9), null);
    const deletedEndpoint = await endpoint({ deleted_at: ago(10) });
    const recentJobEndpoint = await endpoint({ job_id: randomUUID(), created_at: ago(1) });

    const result = await new WebhookRetention(dataSource, 7 * DAY).sweep(now);
    expect(result).toEqual({ deliveries: 2, endpoints: 2 });
    const left = (await dataSource.manager.find(WebhookDeliveryEntity)).map((d) => d.delivery_id);
    expect(left).toEqual(expect.arrayContaining([recentSettled, oldPending]));
    expect(left).not.toContain(oldSettled);
    expect(await dataSource.manager.countBy(WebhookAttemptEntity, { delivery_id: oldSettled })).toBe(0);
    const endpoints = (await dataSource.manager.find(WebhookEndpointEntity)).map((e) => e.endpoint_id);
    expect(endpoints).toEqual(expect.arrayContaining([kept, recentJobEndpoint]));
    expect(endpoints).not.toContain(jobEndpoint);
    expect(endpoints).not.toContain(deletedEndpoint);
  });
});
