import { createDatabase, startNatsServer, type LocalNatsServer } from '@vj/local-stack';
import { BillingRpcClient } from '@vj/messaging';
import { startOpsServer, type OpsServer } from '@vj/observability';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { billingEnv } from '../billing.env';
import { bootBilling, type RunningBilling } from '../boot';

describe('billing observability: /metrics and /readyz', () => {
  let nats: LocalNatsServer;
  let nc: NatsConnection;
  let ops: OpsServer;
  let billing: RunningBilling;

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
    ops = await startOpsServer({ port: 0 });
    const config = billingEnv.parse({ NATS_URL: nats.url, DATABASE_URL: await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'billing_observability'), LOG_LEVEL: 'error' });
    billing = await bootBilling(config, ops);
  });

  afterAll(async () => {
    await billing?.stop();
    await ops?.close();
    await nc?.close();
    await nats?.stop();
  });

  const get = async (path: string) => {
    const response = await fetch(`http://127.0.0.1:${ops.port}${path}`);
    return { status: response.status, text: await response.text() };
  };

  it('is ready once it consumes, with its database and NATS answering', async () => {
    expect((await get('/livez')).status).toBe(200);
    const ready = await get('/readyz');
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.text)).toEqual({ status: 'ok', checks: { started: 'up', nats: 'up', database: 'up' } });
  });

  it('reports the ledger totals, its outbox lag and its consumer lag', async () => {
    const rpc = new BillingRpcClient(nc);
    for (const amount of [500, 250]) await rpc.call('grant', { version: 1, account_id: randomUUID(), amount, idempotency_key: randomUUID() });
    const text = (await get('/metrics')).text;
    expect(text).toContain('billing_balance_credits 750');
    expect(text).toContain('billing_held_credits 0');
    expect(text).toContain('billing_accounts 2');
    expect(text).toMatch(/outbox_oldest_unpublished_age_seconds\{schema="billing"\} [\d.]+/);
    expect(text).toMatch(/jetstream_consumer_pending_messages\{stream="VJ_JOB_EVENTS",consumer="billing-job-events"\} 0/);
    expect(text).toContain('rpc_server_duration_seconds_count{service="billing",method="grant",outcome="ok"} 2');
  });
});
