import { randomUUID } from 'node:crypto';
import { createDatabase } from '@vj/local-stack';
import type { DataSource } from 'typeorm';
import { WebhookAttemptEntity } from '../database/webhook-attempt.entity';
import { WebhookDeliveryEntity } from '../database/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';
import { createWebhooksDataSource } from '../database/webhooks-data-source';
import { runWebhooksMigrations } from '../database/run-webhooks-migrations';
import { DeliveryStore, type NewDelivery } from './delivery-store';

describe('DeliveryStore', () => {
  let dataSource: DataSource;
  let store: DeliveryStore;
  const now = new Date('2026-11-24T00:00:00Z');
  const at = (ms: number) => new Date(now.getTime() + ms);

  beforeAll(async () => {
    dataSource = await createWebhooksDataSource(await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'webhooks_delivery_store')).initialize();
    await runWebhooksMigrations(dataSource);
    store = new DeliveryStore(dataSource);
  });

  afterAll(() => dataSource?.destroy());

  const newEndpoint = async () => {
    const endpoint_id = randomUUID();
    await dataSource.manager.insert(WebhookEndpointEntity, {
      endpoint_id,
      account_id: randomUUID(),
      url: 'https://hooks.example.com/in',
      events: ['job.completed'],
      job_id: null,
      secret: 'whsec_x',
      previous_secret: null,
      previous_secret_expires_at: null,
      disabled_at: null,
      disabled_reason: null,
      deleted_at: null,
      created_at: now,
    });
    return endpoint_id;
  };
  const delivery = (endpoint_id: string, source_id: string = randomUUID()): NewDelivery => ({ delivery_id: randomUUID(), endpoint_id, source_id, event_type: 'job.completed', job_id: randomUUID(), body: '{}' });

  it('adds one delivery per endpoint and event: a redelivered event adds nothing', async () => {
    const endpoint = await newEndpoint();
    const first = delivery(endpoint, 'event-1');
    await store.add([first], now);
    await store.add([{ ...first, delivery_id: randomUUID() }], now);
    expect(await dataSource.manager.countBy(WebhookDeliveryEntity, { endpoint_id: endpoint })).toBe(1);
  });

  it('gives each due delivery to one claimer, and again once its lease ran out', async () => {
    const endpoint = await newEndpoint();
    const item = delivery(endpoint);
    await store.add([item], now);
    const [a, b] = await Promise.all([store.claimDue(at(1), 100, 30_000), store.claimDue(at(1), 100, 30_000)]);
    const mine = (claims: Awaited<ReturnType<DeliveryStore['claimDue']>>) => claims.filter((c) => c.delivery.delivery_id === item.delivery_id);
    expect(mine(a).length + mine(b).length).toBe(1);
    expect(mine(await store.claimDue(at(10_000), 100, 30_000))).toHaveLength(0);
    expect(mine(await store.claimDue(at(31_000), 100, 30_000))[0]?.endpoint.endpoint_id).toBe(endpoint);
  });

  it('records the attempt with its outcome, and a 410 disables the endpoint', async () => {
    const endpoint = await newEndpoint();
    const item = delivery(endpoint);
    await store.add([item], now);
    const attempt = { attempted_at: at(1), status_code: 410, error: null, duration_ms: 12, response_body: 'gone' };
    await store.record(item.delivery_id, endpoint, attempt, { state: 'given_up', failed_attempts: 1, next_attempt_at: null, disableEndpoint: 'the receiver answered 410 Gone' }, at(2));
    expect(await dataSource.manager.findOneByOrFail(WebhookDeliveryEntity, { delivery_id: item.delivery_id })).toMatchObject({ state: 'given_up', failed_attempts: 1, next_attempt_at: null, claimed_until: null });
    expect(await dataSource.manager.findBy(WebhookAttemptEntity, { delivery_id: item.delivery_id })).toEqual([expect.objectContaining({ status_code: 410, response_body: 'gone' })]);
    expect(await dataSource.manager.findOneByOrFail(WebhookEndpointEntity, { endpoint_id: endpoint })).toMatchObject({ disabled_reason: 'the receiver answered 410 Gone' });
    expect(await store.claimDue(at(60_000), 100, 30_000)).toEqual(expect.not.arrayContaining([expect.objectContaining({ delivery: expect.objectContaining({ delivery_id: item.delivery_id }) })]));
  });
});
