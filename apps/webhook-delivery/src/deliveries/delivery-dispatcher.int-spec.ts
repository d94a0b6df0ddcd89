import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AllowList, resolveWithSystemDns } from '@vj/egress';
import { createDatabase } from '@vj/local-stack';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { WebhookAttemptEntity } from '../database/webhook-attempt.entity';
import { WebhookDeliveryEntity } from '../database/webhook-delivery.entity';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';
import { createWebhooksDataSource } from '../database/webhooks-data-source';
import { runWebhooksMigrations } from '../database/run-webhooks-migrations';
import { newWebhookSecret } from '../domain/endpoint-secrets';
import { DeliveryDispatcher } from './delivery-dispatcher';
import { DeliveryStore } from './delivery-store';

// Rounds of the dispatcher against a real database and a loopback receiver that fails, then succeeds.
describe('DeliveryDispatcher', () => {
  let dataSource: DataSource;
  // Near the real time: a receiver refuses a webhook-timestamp more than five minutes off.
  let clock = new Date();
  const statuses: number[] = [];
  const received: { headers: Record<string, string>; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  let url: string;

  beforeAll(async () => {
    dataSource = await createWebhooksDataSource(await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'webhooks_dispatcher')).initialize();
    await runWebhooksMigrations(dataSource);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });

  const insertEndpoint = async (overrides: Partial<WebhookEndpointEntity>): Promise<string> => {
    const endpoint_id = randomUUID();
    await dataSource.manager.insert(WebhookEndpointEntity, {
      endpoint_id, account_id: randomUUID(), url, events: ['job.completed'], job_id: null, secret: newWebhookSecret(),
      previous_secret: null, previous_secret_expires_at: null, disabled_at: null, disabled_reason: null, deleted_at: null, created_at: clock,
      ...overrides,
    });
    return endpoint_id;
  };

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await dataSource?.destroy();
  });

  it('retries a failing receiver on the schedule with the same webhook-id and body, then delivers; every attempt is recorded', async () => {
    const secret = newWebhookSecret();
    const endpoint_id = await insertEndpoint({ secret });
    const store = new DeliveryStore(dataSource);
    const delivery_id = randomUUID();
    const body = JSON.stringify({ type: 'job.completed', timestamp: clock.toISOString(), data: { job: { job_id: 'j1', status: 'COMPLETED' } } });
    await store.add([{ delivery_id, endpoint_id, source_id: 'event-1', event_type: 'job.completed', job_id: randomUUID(), body }], clock);
    const dispatcher = new DeliveryDispatcher(
      store,
      { schedule: [1_000, 1_000, 1_000], limits: { timeoutMs: 2_000, maxResponseBytes: 1024 }, policy: { allowList: AllowList.parse('127.0.0.1'), resolve: resolveWithSystemDns }, batch: 10, leaseMs: 30_000 },
      () => clock,
    );
    statuses.push(500, 500, 500);
    for (let round = 0; round < 4; round++) {
      expect(await dispatcher.dispatchDue()).toBe(1);
      await dispatcher.settled();
      // Not due again before its delay.
      expect(await dispatcher.dispatchDue()).toBe(0);
      clock = new Date(clock.getTime() + 1_300);
    }
    expect(received).toHaveLength(4);
    expect(new Set(received.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery_id]));
    for (const request of received) expect(new Webhook(secret).verify(request.body, request.headers)).toEqual(JSON.parse(body));
    expect(await dataSource.manager.findOneByOrFail(WebhookDeliveryEntity, { delivery_id })).toMatchObject({ state: 'delivered', failed_attempts: 3, next_attempt_at: null });
    const attempts = await dataSource.manager.find(WebhookAttemptEntity, { where: { delivery_id }, order: { attempt_seq: 'ASC' } });
    expect(attempts.map((a) => a.status_code)).toEqual([500, 500, 500, 200]);
  });

  it('sends nothing for an endpoint disabled since the delivery was written', async () => {
    const endpoint_id = await insertEndpoint({ disabled_at: clock, disabled_reason: 'the receiver answered 410 Gone' });
    const store = new DeliveryStore(dataSource);
    const delivery_id = randomUUID();
    await store.add([{ delivery_id, endpoint_id, source_id: 'event-2', event_type: 'job.completed', job_id: randomUUID(), body: '{}' }], clock);
    const before = received.length;
    const dispatcher = new DeliveryDispatcher(
      store,
      { schedule: [1_000], limits: { timeoutMs: 2_000, maxResponseBytes: 1024 }, policy: { allowList: AllowList.parse('127.0.0.1'), resolve: resolveWithSystemDns }, batch: 10, leaseMs: 30_000 },
      () => clock,
    );
    expect(await dispatcher.dispatchDue()).toBe(1);
    await dispatcher.settled();
    expect(received).toHaveLength(before);
    expect(await dataSource.manager.findOneByOrFail(WebhookDeliveryEntity, { delivery_id })).toMatchObject({ state: 'given_up', next_attempt_at: null });
  });
});
