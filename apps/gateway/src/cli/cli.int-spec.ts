import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { GrantCreditsRequestV1 } from '@vj/contracts';
import { createDatabase, startNatsServer, type LocalNatsServer } from '@vj/local-stack';
import { RpcError, serveBillingRpc, serveHealth } from '@vj/messaging';
import { connect, type NatsConnection } from 'nats';
import { hashApiKey } from '../identity/api-key';
import { createIdentityDataSource } from '../identity/identity-data-source';

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
    estimate: unused,
    balance: unused,
    usage: unused,
    ledger: unused,
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
  describe('with billing', () => {
    let nats: LocalNatsServer;
    let nc: NatsConnection;
    let billing: { stop(): Promise<void> };
    let billingEnv: Record<string, string>;
    const grants: GrantCreditsRequestV1[] = [];
    const failing = { grants: false };

    beforeAll(async () => {
      nats = await startNatsServer();
      nc = await connect({ servers: nats.url });
      billing = serveFakeBilling(nc, grants, failing);
      billingEnv = { ...env, NATS_URL: nats.url };
    });

    afterAll(async () => {
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
      expect(result.stderr).toContain('cannot reach NATS at nats://127.0.0.1:1');
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
