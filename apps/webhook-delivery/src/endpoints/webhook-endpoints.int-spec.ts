import { randomUUID } from 'node:crypto';
import { schemaViolations } from '@vj/http-contracts';
import { createDatabase } from '@vj/local-stack';
import { RpcError } from '@vj/messaging';
import type { DataSource } from 'typeorm';
import { WebhookAttemptEntity } from '../database/webhook-attempt.entity';
import { WebhookDeliveryEntity } from '../database/webhook-delivery.entity';
import { createWebhooksDataSource } from '../database/webhooks-data-source';
import { runWebhooksMigrations } from '../database/run-webhooks-migrations';
import { ENDPOINTS_PER_ACCOUNT, WebhookEndpoints } from './webhook-endpoints';

describe('WebhookEndpoints', () => {
  let dataSource: DataSource;
  let clock = new Date('2026-11-24T00:00:00Z');
  let nudges = 0;
  // Accounts whose endpoints changed, as the progress intake's cache hears of them.
  const changed: string[] = [];
  let endpoints: WebhookEndpoints;

  beforeAll(async () => {
    dataSource = await createWebhooksDataSource(await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'webhooks_endpoints')).initialize();
    await runWebhooksMigrations(dataSource);
    endpoints = new WebhookEndpoints(dataSource, { onDue: () => nudges++, onChanged: (id) => changed.push(id), now: () => clock });
  });

  afterAll(() => dataSource?.destroy());

  const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof RpcError ? error.code : error));
  const account = () => randomUUID();

  it('creates an endpoint with its secret once, lists it without, and scopes every call to its account', async () => {
    const owner = account();
    const created = await endpoints.create({ version: 1, account_id: owner, url: 'https://hooks.example.com/in', events: [] });
    expect(schemaViolations('WebhookEndpointWithSecret', created)).toEqual([]);
    expect(created.events).toEqual(['job.started', 'job.completed', 'job.failed', 'job.cancelled']);
    expect(changed).toContain(owner);
    const listed = await endpoints.list({ version: 1, account_id: owner });
    expect(schemaViolations('WebhookEndpointList', listed)).toEqual([]);
    expect(listed.data).toEqual([expect.objectContaining({ id: created.id, enabled: true })]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const stranger = account();
    expect((await endpoints.list({ version: 1, account_id: stranger })).data).toEqual([]);
    expect(await refusal(endpoints.delete({ version: 1, account_id: stranger, endpoint_id: created.id }))).toBe('not_found');
    expect(await refusal(endpoints.rotate({ version: 1, account_id: stranger, endpoint_id: created.id }))).toBe('not_found');
    expect(await refusal(endpoints.deliveries({ version: 1, account_id: stranger, endpoint_id: created.id, limit: 10 }))).toBe('not_found');

    const changesBefore = changed.length;
    await endpoints.delete({ version: 1, account_id: owner, endpoint_id: created.id });
    expect(changed.slice(changesBefore)).toEqual([owner]);
    expect((await endpoints.list({ version: 1, account_id: owner })).data).toEqual([]);
    expect(await refusal(endpoints.delete({ version: 1, account_id: owner, endpoint_id: created.id }))).toBe('not_found');
  });

  it('refuses a URL that is not http(s), an unknown event type, and more endpoints than the limit', async () => {
    const owner = account();
    expect(await refusal(endpoints.create({ version: 1, account_id: owner, url: 'file:///etc/passwd', events: [] }))).toBe('invalid_request');
    expect(await refusal(endpoints.create({ version: 1, account_id: owner, url: 'https://a.example', events: ['job.exploded' as never] }))).toBe('invalid_request');
    await Promise.all(Array.from({ length: ENDPOINTS_PER_ACCOUNT }, (_, i) => endpoints.create({ version: 1, account_id: owner, url: `https://a.example/${i}`, events: [] })));
    expect(await refusal(endpoints.create({ version: 1, account_id: owner, url: 'https://a.example/one-more', events: [] }))).toBe('conflict');
  });

  it('rotates a secret with a grace that ends, and refuses a grace out of range', async () => {
    const owner = account();
    const created = await endpoints.create({ version: 1, account_id: owner, url: 'https://hooks.example.com/r', events: ['job.completed'] });
    const rotated = await endpoints.rotate({ version: 1, account_id: owner, endpoint_id: created.id, grace_seconds: 60 });
    expect(rotated.secret).not.toBe(created.secret);
    expect(rotated.previous_secret_expires_at).toBe(new Date(clock.getTime() + 60_000).toISOString());
    clock = new Date(clock.getTime() + 61_000);
    expect((await endpoints.list({ version: 1, account_id: owner })).data[0]!.previous_secret_expires_at).toBeNull();
    expect(await refusal(endpoints.rotate({ version: 1, account_id: owner, endpoint_id: created.id, grace_seconds: -1 }))).toBe('invalid_request');
  });

  it('lists deliveries newest first with their attempts, pages them, and retries one by hand', async () => {
    const owner = account();
    const endpoint = await endpoints.create({ version: 1, account_id: owner, url: 'https://hooks.example.com/d', events: [] });
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const [i, delivery_id] of ids.entries()) {
      await dataSource.manager.insert(WebhookDeliveryEntity, {
        delivery_id, endpoint_id: endpoint.id, source_id: randomUUID(), event_type: 'job.completed', job_id: randomUUID(), body: '{}',
        state: 'given_up', failed_attempts: 7, next_attempt_at: null, claimed_until: null, created_at: new Date(clock.getTime() + i),
      });
    }
    await dataSource.manager.insert(WebhookAttemptEntity, [
      { delivery_id: ids[2]!, attempted_at: clock, status_code: 500, error: null, duration_ms: 12, response_body: 'no' },
      { delivery_id: ids[2]!, attempted_at: clock, status_code: null, error: 'timed out', duration_ms: 3000, response_body: '' },
    ]);
    const first = await endpoints.deliveries({ version: 1, account_id: owner, endpoint_id: endpoint.id, limit: 2 });
    expect(schemaViolations('WebhookDeliveryPage', first)).toEqual([]);
    expect(first.data.map((d) => d.id)).toEqual([ids[2], ids[1]]);
    expect(first.data[0]!.attempts.map((a) => a.status_code ?? a.error)).toEqual([500, 'timed out']);
    const second = await endpoints.deliveries({ version: 1, account_id: owner, endpoint_id: endpoint.id, limit: 2, cursor: first.next_cursor! });
    expect(second.data.map((d) => d.id)).toEqual([ids[0]]);
    expect(second.next_cursor).toBeNull();
    expect(await refusal(endpoints.deliveries({ version: 1, account_id: owner, endpoint_id: endpoint.id, limit: 2, cursor: 'garbage' }))).toBe('invalid_request');

    const before = nudges;
    const retried = await endpoints.retry({ version: 1, account_id: owner, endpoint_id: endpoint.id, delivery_id: ids[0]! });
    expect(retried).toEqual(expect.objectContaining({ id: ids[0], state: 'pending', next_attempt_at: clock.toISOString() }));
    expect(nudges).toBe(before + 1);
    expect(await refusal(endpoints.retry({ version: 1, account_id: owner, endpoint_id: endpoint.id, delivery_id: randomUUID() }))).toBe('not_found');
    await dataSource.manager.update(WebhookDeliveryEntity, { delivery_id: ids[1] }, { claimed_until: new Date(clock.getTime() + 10_000) });
    expect(await refusal(endpoints.retry({ version: 1, account_id: owner, endpoint_id: endpoint.id, delivery_id: ids[1]! }))).toBe('conflict');
  });

  it("makes the account's default secret on first read, keeps it, and rotates it with a grace", async () => {
    const owner = account();
    const [a, b] = await Promise.all([endpoints.defaultSecret({ version: 1, account_id: owner }), endpoints.defaultSecret({ version: 1, account_id: owner })]);
    expect(schemaViolations('WebhookDefaultSecret', a)).toEqual([]);
    expect(b.secret).toBe(a.secret);
    const rotated = await endpoints.rotateDefaultSecret({ version: 1, account_id: owner, grace_seconds: 30 });
    expect(rotated.secret).not.toBe(a.secret);
    expect(rotated.previous_secret_expires_at).toBe(new Date(clock.getTime() + 30_000).toISOString());
    expect((await endpoints.defaultSecret({ version: 1, account_id: owner })).secret).toBe(rotated.secret);
  });
});
