import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CONSUMERS, subjects, type ConsumerName, type GrantCreditsRequestV1 } from '@vj/contracts';
import { createDatabase, startNatsServer, type LocalNatsServer } from '@vj/local-stack';
import { ensureStreams, RpcError, serveBillingRpc, serveHealth, serveJobsRpc, type RpcService } from '@vj/messaging';
import { connect, type NatsConnection } from 'nats';
import { AccountsRepository, AuthenticateApiKeyUseCase, createIdentityDataSource, hashApiKey } from '../identity';

const run = promisify(execFile);
const ROOT = join(__dirname, '../../../..');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], env: Record<string, string>): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run('node', ['scripts/run-ts.cjs', 'apps/gateway/src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function oneJsonLine(stdout: string): Record<string, unknown> {
  const lines = stdout.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

const unused = async (): Promise<never> => {
  throw new Error('not used by the CLI');
};

// Billing's grant as the CLI sees it over NATS: a balance per account, each idempotency key counted once;
// `failing.grants` makes it answer every grant with an internal error.
function serveFakeBilling(nc: NatsConnection, grants: GrantCreditsRequestV1[], failing = { grants: false }) {
  const balances = new Map<string, number>();
  const seen = new Set<string>();
  const rpc = serveBillingRpc(nc, {
    grant: async (request) => {
      grants.push(request);
      if (failing.grants) throw new RpcError('internal', 'ledger is locked');
      if (!seen.has(request.idempotency_key)) balances.set(request.account_id, (balances.get(request.account_id) ?? 0) + request.amount);
      seen.add(request.idempotency_key);
      return { account_id: request.account_id, balance: balances.get(request.account_id) ?? 0 };
    },
    price_list: unused,
    balance: unused,
    usage: unused,
    ledger: unused,
    extend_hold: unused,
  });
  const health = serveHealth(nc, 'billing', () => true);
  return {
    async stop() {
      await rpc.close();
      await health.drain();
      await nc.flush();
    },
  };
}

describe('operator CLI', () => {
  let env: Record<string, string>;
  let dir: string;

  beforeAll(async () => {
    env = { DATABASE_URL: await createDatabase(process.env.TEST_DATABASE_ADMIN_URL ?? '', 'gateway_cli') };
    dir = mkdtempSync(join(tmpdir(), 'vj-cli-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates an account and prints exactly one JSON line whose key is stored hashed', async () => {
    const result = await cli(['account', 'create', '--name', 'x'], env);
    expect(result.code).toBe(0);
    const created = oneJsonLine(result.stdout);
    expect(Object.keys(created)).toEqual(['account_id', 'api_key']);
    expect(created.api_key).toMatch(/^vj_[A-Za-z0-9_-]{43}$/);

    const dataSource = await createIdentityDataSource(env.DATABASE_URL).initialize();
    try {
      const rows = await dataSource.query('SELECT account_id, key_hash, key_prefix FROM identity.api_keys');
      expect(rows).toEqual([{ account_id: created.account_id, key_hash: hashApiKey(String(created.api_key)), key_prefix: String(created.api_key).slice(0, 10) }]);
    } finally {
      await dataSource.destroy();
    }
  }, 30_000);

  it.each([
    [['account', 'create'], '--name is required'],
    [['account', 'create', '--name', 'acme', '--credits', '-1'], '--credits must be a whole number'],
    [['credits', 'grant', '--account', 'a', '--amount', '0'], '--amount must be a whole number'],
  ])('exits 2 with a clear message on stderr for %j', async (args, message) => {
    const result = await cli(args, env);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  }, 30_000);

  it('exits 2 when DATABASE_URL is missing', async () => {
    const result = await cli(['account', 'create', '--name', 'x'], {});
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('DATABASE_URL');
  }, 30_000);

  it('ensure-dev creates the development account once, keeps its key in a 0600 file and reuses it', async () => {
    const keyFile = join(dir, 'nested', 'dev-api-key');
    const first = await cli(['account', 'ensure-dev', '--key-file', keyFile], env);
    expect(first.code).toBe(0);
    const created = oneJsonLine(first.stdout);
    expect(readFileSync(keyFile, 'utf8').trim()).toBe(created.api_key);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);

    const second = await cli(['account', 'ensure-dev', '--key-file', keyFile], env);
    expect(second.code).toBe(0);
    expect(oneJsonLine(second.stdout)).toEqual(created);
  }, 30_000);
  async function principalOf(apiKey: string) {
    const dataSource = await createIdentityDataSource(env.DATABASE_URL).initialize();
    try {
      return await new AuthenticateApiKeyUseCase(new AccountsRepository(dataSource)).execute(apiKey);
    } finally {
      await dataSource.destroy();
    }
  }

  it('keys create, list and revoke: a second key works beside the first, a revoked one stops at once', async () => {
    const account = oneJsonLine((await cli(['account', 'create', '--name', 'rotating'], env)).stdout);
    const created = await cli(['account', 'keys', 'create', '--account', String(account.account_id), '--name', 'ci'], env);
    expect(created.code).toBe(0);
    const key = oneJsonLine(created.stdout);
    expect(key).toEqual({
      account_id: account.account_id,
      key_id: expect.any(String),
      name: 'ci',
      key_prefix: String(key.api_key).slice(0, 10),
      created_at: expect.any(String),
      revoked_at: null,
      api_key: expect.stringMatching(/^vj_/),
    });
    expect((await principalOf(String(key.api_key)))?.accountId).toBe(account.account_id);

    const listed = oneJsonLine((await cli(['account', 'keys', 'list', '--account', String(account.account_id)], env)).stdout) as { keys: Record<string, unknown>[] };
    expect(listed.keys.map((k) => k.name)).toEqual([null, 'ci']);
    expect(JSON.stringify(listed)).not.toContain(String(key.api_key));

    const revoked = await cli(['account', 'keys', 'revoke', '--key', String(key.key_id)], env);
    expect(revoked.code).toBe(0);
    expect(oneJsonLine(revoked.stdout)).toMatchObject({ key_id: key.key_id, account_id: account.account_id, revoked_at: expect.any(String) });
    expect(await principalOf(String(key.api_key))).toBeNull();
    expect((await principalOf(String(account.api_key)))?.accountId).toBe(account.account_id);

    const unknown = await cli(['account', 'keys', 'revoke', '--key', '3f2c1b0a-9e8d-4c7b-a6f5-e4d3c2b1a090'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no key 3f2c1b0a-9e8d-4c7b-a6f5-e4d3c2b1a090');
  }, 60_000);

  it("account limits sets and clears an account's own limits; account show prints them", async () => {
    const account = oneJsonLine((await cli(['account', 'create', '--name', 'limited'], env)).stdout);
    const id = String(account.account_id);
    const set = await cli(['account', 'limits', '--account', id, '--writes-per-second', '2.5', '--max-processing-jobs', '3'], env);
    expect(set.code).toBe(0);
    expect(oneJsonLine(set.stdout).limits).toEqual({ reads_per_second: null, read_burst: null, writes_per_second: 2.5, write_burst: null, max_processing_jobs: 3 });
    await cli(['account', 'limits', '--account', id, '--max-processing-jobs', 'default'], env);
    const shown = oneJsonLine((await cli(['account', 'show', '--account', id], env)).stdout);
    expect(shown).toMatchObject({ account_id: id, name: 'limited', suspended_at: null, limits: { writes_per_second: 2.5, max_processing_jobs: null } });
  }, 60_000);

  describe('with billing', () => {
    let nats: LocalNatsServer;
    let nc: NatsConnection;
    let billing: { stop(): Promise<void> };
    let billingEnv: Record<string, string>;
    const grants: GrantCreditsRequestV1[] = [];
    const failing = { grants: false };
    const cancelledAccounts: string[] = [];
    let jobsRpc: RpcService;

    beforeAll(async () => {
      nats = await startNatsServer();
      nc = await connect({ servers: nats.url });
      billing = serveFakeBilling(nc, grants, failing);
      jobsRpc = serveJobsRpc(nc, {
        cancel_account: async (request) => {
          cancelledAccounts.push(request.account_id);
          return { cancelled: 2 };
        },
        create: unused,
        replay: unused,
        get: unused,
        list: unused,
        cancel: unused,
        delete: unused,
      });
      billingEnv = { ...env, NATS_URL: nats.url };
    });

    afterAll(async () => {
      await jobsRpc?.close();
      await billing?.stop();
      await nc?.drain();
      await nats?.stop();
    });

    async function withBillingDown(check: () => Promise<void>): Promise<void> {
      await billing.stop();
      try {
        await check();
      } finally {
        billing = serveFakeBilling(nc, grants, failing);
        await nc.flush();
      }
    }

    async function accountCount(): Promise<number> {
      const dataSource = await createIdentityDataSource(env.DATABASE_URL).initialize();
      try {
        return Number((await dataSource.query('SELECT count(*) AS n FROM identity.accounts'))[0].n);
      } finally {
        await dataSource.destroy();
      }
    }

    async function newAccountId(): Promise<string> {
      return String(oneJsonLine((await cli(['account', 'create', '--name', 'grantee'], env)).stdout).account_id);
    }

    it('grants credits to an account and prints {account_id, balance}; the same key grants once', async () => {
      const accountId = await newAccountId();
      const args = ['credits', 'grant', '--account', accountId, '--amount', '500', '--idempotency-key', 'promo-1'];
      const first = await cli(args, billingEnv);
      expect(first.code).toBe(0);
      expect(oneJsonLine(first.stdout)).toEqual({ account_id: accountId, balance: 500 });
      expect(grants.at(-1)).toEqual({ version: 1, account_id: accountId, amount: 500, idempotency_key: 'promo-1' });

      const retried = await cli(args, billingEnv);
      expect(oneJsonLine(retried.stdout)).toEqual({ account_id: accountId, balance: 500 });
    }, 30_000);

    it('grants with a fresh random idempotency key when none is given', async () => {
      const accountId = await newAccountId();
      for (const expected of [5, 10]) {
        const result = await cli(['credits', 'grant', '--account', accountId, '--amount', '5'], billingEnv);
        expect(oneJsonLine(result.stdout)).toEqual({ account_id: accountId, balance: expected });
        expect(grants.at(-1)?.idempotency_key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }
    }, 30_000);

    it.each([
      ['an unknown account id', '3f2c1b0a-9e8d-4c7b-a6f5-e4d3c2b1a090'],
      ['an id that is not a UUID', 'acme'],
    ])('exits 2 for %s without asking billing', async (_name, accountId) => {
      const before = grants.length;
      const result = await cli(['credits', 'grant', '--account', accountId, '--amount', '5'], billingEnv);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(`no account ${accountId}`);
      expect(grants).toHaveLength(before);
    }, 30_000);

    it('exits 2 naming NATS_URL when a billing command runs without it', async () => {
      const result = await cli(['credits', 'grant', '--account', 'a', '--amount', '5'], env);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('NATS_URL');
    }, 30_000);

    it('exits 1 with a clear message when NATS cannot be reached', async () => {
      const result = await cli(['credits', 'grant', '--account', await newAccountId(), '--amount', '5'], { ...env, NATS_URL: 'nats://127.0.0.1:1' });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('cannot reach NATS at 127.0.0.1:1');
    }, 30_000);

    it('exits 1 when billing does not answer a grant, naming the key to retry with', async () => {
      const accountId = await newAccountId();
      await withBillingDown(async () => {
        const result = await cli(['credits', 'grant', '--account', accountId, '--amount', '5', '--idempotency-key', 'retry-me'], billingEnv);
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toContain('--idempotency-key retry-me');
      });
    }, 30_000);

    it('account create --credits grants the starting credits once, keyed by the new account', async () => {
      const result = await cli(['account', 'create', '--name', 'acme', '--credits', '1000'], billingEnv);
      expect(result.code).toBe(0);
      const created = oneJsonLine(result.stdout);
      expect(Object.keys(created)).toEqual(['account_id', 'api_key']);
      expect(grants.at(-1)).toEqual({ version: 1, account_id: created.account_id, amount: 1000, idempotency_key: `account-create:${created.account_id}` });
    }, 30_000);

    it('account create --credits still prints the new key when the grant fails, with the command that finishes it', async () => {
      failing.grants = true;
      try {
        const result = await cli(['account', 'create', '--name', 'acme', '--credits', '1000'], billingEnv);
        expect(result.code).toBe(1);
        const created = oneJsonLine(result.stdout);
        expect(Object.keys(created)).toEqual(['account_id', 'api_key']);
        expect(result.stderr).toContain(`credits grant --account ${created.account_id} --amount 1000 --idempotency-key account-create:${created.account_id}`);
      } finally {
        failing.grants = false;
      }
    }, 30_000);

    it("suspend: the account's keys stop at once and its PROCESSING jobs are cancelled; reinstate brings the keys back", async () => {
      const account = oneJsonLine((await cli(['account', 'create', '--name', 'suspect'], env)).stdout);
      const suspended = await cli(['account', 'suspend', '--account', String(account.account_id)], billingEnv);
      expect(suspended.code).toBe(0);
      expect(oneJsonLine(suspended.stdout)).toMatchObject({ account_id: account.account_id, suspended_at: expect.any(String), jobs_cancelled: 2 });
      expect(cancelledAccounts).toContain(account.account_id);
      expect(await principalOf(String(account.api_key))).toBeNull();

      const reinstated = await cli(['account', 'reinstate', '--account', String(account.account_id)], env);
      expect(oneJsonLine(reinstated.stdout)).toMatchObject({ suspended_at: null });
      expect((await principalOf(String(account.api_key)))?.accountId).toBe(account.account_id);
    }, 60_000);

    it('dead-letters list shows the kept dead letters newest first; replay publishes one where it came from and removes it', async () => {
      await ensureStreams(await nc.jetstreamManager());
      const js = nc.jetstream();
      const keep = (durable: ConsumerName, subject: string, payload: unknown, streamSeq: number, reason = 'last-attempt') =>
        js.publish(subjects.deadLetter(durable), new TextEncoder().encode(JSON.stringify({ version: 1, stream: 'VJ_JOB_EVENTS', consumer: durable, subject, stream_seq: streamSeq, payload, deliveries: 5, reason, error: 'db down', dead_at: new Date().toISOString() })));
      await keep(CONSUMERS.billingJobEvents, subjects.jobEvent('completed'), { job_id: 'j-1' }, 41);
      const second = await keep(CONSUMERS.jobsReports, subjects.report('succeeded'), { job_id: 'j-2' }, 42);

      const listed = oneJsonLine((await cli(['dead-letters', 'list'], billingEnv)).stdout) as { dead_letters: { seq: number; consumer: string }[] };
      expect(listed.dead_letters.slice(0, 2).map((letter) => letter.consumer)).toEqual([CONSUMERS.jobsReports, CONSUMERS.billingJobEvents]);
      const billingOnly = oneJsonLine((await cli(['dead-letters', 'list', '--consumer', CONSUMERS.billingJobEvents], billingEnv)).stdout) as { dead_letters: { seq: number; payload: unknown }[] };
      expect(billingOnly.dead_letters).toEqual([expect.objectContaining({ payload: { job_id: 'j-1' }, error: 'db down' })]);

      const replayed: unknown[] = [];
      const sub = nc.subscribe(subjects.report('succeeded'), { callback: (_e, msg) => replayed.push(JSON.parse(new TextDecoder().decode(msg.data))) });
      const result = await cli(['dead-letters', 'replay', '--seq', String(second.seq)], billingEnv);
      expect(result.code).toBe(0);
      expect(oneJsonLine(result.stdout)).toEqual({ replayed: second.seq, subject: subjects.report('succeeded'), consumer: CONSUMERS.jobsReports });
      await nc.flush();
      await new Promise((resolve) => setTimeout(resolve, 200));
      sub.unsubscribe();
      expect(replayed).toEqual([{ job_id: 'j-2' }]);
      const after = oneJsonLine((await cli(['dead-letters', 'list'], billingEnv)).stdout) as { dead_letters: { seq: number }[] };
      expect(after.dead_letters.map((letter) => letter.seq)).not.toContain(second.seq);
      expect((await cli(['dead-letters', 'replay', '--seq', String(second.seq)], billingEnv)).code).toBe(2);

      const undecodable = await keep(CONSUMERS.jobsReports, subjects.report('succeeded'), '{"job_id": ', 43, 'undecodable');
      const refused = await cli(['dead-letters', 'replay', '--seq', String(undecodable.seq)], billingEnv);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('cannot be replayed');
      const kept = oneJsonLine((await cli(['dead-letters', 'list'], billingEnv)).stdout) as { dead_letters: { seq: number }[] };
      expect(kept.dead_letters.map((letter) => letter.seq)).toContain(undecodable.seq);
    }, 60_000);

    it('account create --credits creates nothing when billing does not answer', async () => {
      const before = await accountCount();
      await withBillingDown(async () => {
        const result = await cli(['account', 'create', '--name', 'acme', '--credits', '1000'], billingEnv);
        expect(result.code).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toContain('no account was created');
      });
      expect(await accountCount()).toBe(before);
    }, 30_000);
  });
});
