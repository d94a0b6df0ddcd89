import { randomUUID } from 'node:crypto';
import { createDatabase } from '@vj/local-stack';
import type { DataSource } from 'typeorm';
import { WebhookAttemptEntity } from '../database/webhook-attempt.entity';
import { WebhookDeliveryEntity } from '../database/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';
import { createWebhooksDataSource } from '../database/webhooks-data-source';
import { runWebhooksMigrations } from '../database/run-webhooks-migrations';
import { DeliveryStore, IN_FLIGHT_PER_ENDPOINT, type NewDelivery } from './delivery-store';

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

  it('gives a delivery to one of several claimers racing, however their statements interleave', async () => {
    // A claimer whose statement began before another's claim committed must not take the row too.
    // Rare per round: before the claim's conditions were checked again on the row it locks, 300 rounds
    // found a double claim within a second.
    for (let round = 0; round < 50; round++) {
      const item = delivery(await newEndpoint());
      await store.add([item], now);
      const claims = await Promise.all([1, 2, 3].map(() => store.claimDue(at(1), 100, 30_000)));
      expect(claims.flat().filter((c) => c.delivery.delivery_id === item.delivery_id).length).toBe(1);
    }
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
    const [claimed] = await store.claimDue(at(1), 100, 30_000);
    expect(claimed?.delivery.delivery_id).toBe(item.delivery_id);
    // A receiver's binary answer (NUL bytes) and an overlong error are stored as far as the columns allow.
    const attempt = { attempted_at: at(1), status_code: 410, error: 'x'.repeat(900), duration_ms: 12, response_body: 'go\u0000ne' };
    await store.record({ deliveryId: item.delivery_id, endpointId: endpoint, lease: claimed!.lease }, attempt, { state: 'given_up', failed_attempts: 1, next_attempt_at: null, disableEndpoint: 'the receiver answered 410 Gone' }, at(2));
    expect(await dataSource.manager.findOneByOrFail(WebhookDeliveryEntity, { delivery_id: item.delivery_id })).toMatchObject({ state: 'given_up', failed_attempts: 1, next_attempt_at: null, claimed_until: null });
    expect(await dataSource.manager.findBy(WebhookAttemptEntity, { delivery_id: item.delivery_id })).toEqual([expect.objectContaining({ status_code: 410, response_body: 'gone', error: 'x'.repeat(500) })]);
    expect(await dataSource.manager.findOneByOrFail(WebhookEndpointEntity, { endpoint_id: endpoint })).toMatchObject({ disabled_reason: 'the receiver answered 410 Gone' });
    expect(await store.claimDue(at(60_000), 100, 30_000)).toEqual(expect.not.arrayContaining([expect.objectContaining({ delivery: expect.objectContaining({ delivery_id: item.delivery_id }) })]));
  });

  it('keeps at most a few attempts in flight per endpoint, and lets a claim that ran out decide nothing', async () => {
    const slow = await newEndpoint();
    const other = await newEndpoint();
    const items = Array.from({ length: IN_FLIGHT_PER_ENDPOINT + 3 }, () => delivery(slow));
    await store.add([...items, delivery(other)], now);
    const first = await store.claimDue(at(100_000), 100, 30_000);
    const ofSlow = first.filter((c) => c.endpoint.endpoint_id === slow);
    expect(ofSlow).toHaveLength(IN_FLIGHT_PER_ENDPOINT);
    expect(first.some((c) => c.endpoint.endpoint_id === other)).toBe(true);
    expect((await store.claimDue(at(100_001), 100, 30_000)).filter((c) => c.endpoint.endpoint_id === slow)).toHaveLength(0);

    // The first claim runs out and another instance claims the row again: the late record changes nothing.
    const second = await store.claimDue(at(140_000), 100, 30_000);
    // Two picks of 4 among 7 rows share one at least.
    const stale = ofSlow.find((c) => second.some((again) => again.delivery.delivery_id === c.delivery.delivery_id))!;
    const retaken = second.find((c) => c.delivery.delivery_id === stale.delivery.delivery_id);
    const attempt = { attempted_at: at(140_001), status_code: 200, error: null, duration_ms: 5, response_body: '' };
    await store.record({ deliveryId: stale.delivery.delivery_id, endpointId: slow, lease: stale.lease }, attempt, { state: 'delivered', failed_attempts: 0, next_attempt_at: null }, at(140_002));
    expect(await dataSource.manager.findOneByOrFail(WebhookDeliveryEntity, { delivery_id: stale.delivery.delivery_id })).toMatchObject({ state: 'pending', claimed_until: retaken!.lease });
  });
});
