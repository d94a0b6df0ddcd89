import request from 'supertest';
import { createGatewayApp } from '../app/create-gateway-app';
import { fakeMessaging } from '../../test/fake-messaging';
import { startGateway, type GatewayHarness } from '../../test/gateway-harness';
import { AccountKeysUseCase } from './account-keys.use-case';
import { waitFor } from '@vj/local-stack';
import { Client } from 'pg';
import { AccountsRepository } from './accounts.repository';
import { hashApiKey } from './api-key';
import { PrincipalCache } from './principal-cache';
import { SuspendAccountUseCase } from './suspend-account.use-case';

describe('API keys: several per account, revocation and suspension on every gateway instance', () => {
  let gw: GatewayHarness;
  let servers: unknown[];
  let closeSecond: () => Promise<void>;

  beforeAll(async () => {
    gw = await startGateway('gateway_api_keys');
    const second = await createGatewayApp(gw.config, { messaging: fakeMessaging() });
    servers = [gw.server, second.getHttpServer()];
    closeSecond = () => second.close();
  });

  afterAll(async () => {
    await closeSecond?.();
    await gw.stop();
  });

  const statusesWith = (apiKey: string) =>
    Promise.all(servers.map(async (server) => (await request(server as never).get('/v1/jobs').set({ Authorization: `Bearer ${apiKey}` })).status));
  // Each instance caches the key and hears the change's notification a moment after the commit.
  const statusesSoonWith = async (apiKey: string, expected: number[]) => {
    const deadline = Date.now() + 500;
    let statuses = await statusesWith(apiKey);
    while (JSON.stringify(statuses) !== JSON.stringify(expected) && Date.now() < deadline) statuses = await statusesWith(apiKey);
    return statuses;
  };

  it('answers 401 on every instance within moments of a key being revoked, while the other key goes on', async () => {
    const alice = await gw.newAccount('alice');
    const keys = new AccountKeysUseCase(gw.app.get(AccountsRepository));
    const second = await keys.create(alice.account_id, 'ci');
    expect(await statusesWith(second.api_key)).toEqual([200, 200]);
    // Cached on both instances now.
    expect(await statusesWith(second.api_key)).toEqual([200, 200]);
    await keys.revoke(second.key_id);
    expect(await statusesSoonWith(second.api_key, [401, 401])).toEqual([401, 401]);
    expect(await statusesWith(alice.api_key)).toEqual([200, 200]);
  });

  it('creates no job for an account suspended while its create was being quoted', async () => {
    const carol = await gw.newAccount('carol');
    let open!: () => void;
    gw.mediaProbe.gate = new Promise((resolve) => (open = resolve));
    try {
      const creates = gw.jobs.creates.length;
      const pending = request(gw.server).post('/v1/clean-audio-video').set({ Authorization: `Bearer ${carol.api_key}` }).send({ video_url: 'https://example.com/slow.mp4' });
      const answered = pending.then((res) => res);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await new SuspendAccountUseCase(gw.app.get(AccountsRepository), gw.jobs).suspend(carol.account_id);
      open();
      const res = await answered;
      expect(res.status).toBe(401);
      expect(gw.jobs.creates.length).toBe(creates);
    } finally {
      gw.mediaProbe.gate = null;
    }
  });

  it("answers 401 for every key of a suspended account and cancels its jobs through the jobs service", async () => {
    const bob = await gw.newAccount('bob');
    const created = await request(gw.server).post('/v1/clean-audio-video').set({ Authorization: `Bearer ${bob.api_key}` }).send({ video_url: 'https://example.com/a.mp4' });
    expect(created.status).toBe(202);
    const result = await new SuspendAccountUseCase(gw.app.get(AccountsRepository), gw.jobs).suspend(bob.account_id);
    expect(result.jobs_cancelled).toBe(1);
    expect(await statusesSoonWith(bob.api_key, [401, 401])).toEqual([401, 401]);
    expect((await gw.jobs.get({ version: 1, account_id: bob.account_id, job_id: created.body.job_id })).status).toBe('CANCELLED');
  });

  it('reads keys from the database while the change listener is down, and caches again once it is back', async () => {
    const dave = await gw.newAccount('dave');
    const keys = new AccountKeysUseCase(gw.app.get(AccountsRepository));
    const spare = await keys.create(dave.account_id, 'spare');
    expect(await statusesWith(spare.api_key)).toEqual([200, 200]);
    const cache = gw.app.get(PrincipalCache);
    const sql = async (query: string): Promise<{ n: number }[]> => {
      const client = new Client({ connectionString: gw.config.DATABASE_URL });
      await client.connect();
      try {
        return (await client.query(query)).rows;
      } finally {
        await client.end();
      }
    };
    const listeners = `FROM pg_stat_activity WHERE application_name = 'vj-gateway-identity-changes' AND datname = current_database()`;
    const listenersUp = () => sql(`SELECT count(*)::int AS n ${listeners}`);
    await sql(`SELECT pg_terminate_backend(pid) ${listeners}`);
    // No notification can reach a terminated listener: the revocation must be read from the database.
    await waitFor('the cache turned off', async () => cache.get(hashApiKey(spare.api_key)) === undefined, 5_000);
    await keys.revoke(spare.key_id);
    expect(await statusesWith(spare.api_key)).toEqual([401, 401]);
    // Both instances listen again (after their backoff) and cache again.
    await waitFor('both listeners back', async () => (await listenersUp())[0].n === 2, 5_000);
    await waitFor('keys cached again', async () => (await statusesWith(dave.api_key)).every((status) => status === 200) && cache.get(hashApiKey(dave.api_key)) !== undefined, 5_000);
  });
});
