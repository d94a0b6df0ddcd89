import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createDatabase } from '@vj/local-stack';
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
    [['account', 'create', '--name', 'acme', '--credits', '1000'], '--credits'],
    [['credits', 'grant', '--account', 'a', '--amount', '5'], 'credits grant'],
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
});
