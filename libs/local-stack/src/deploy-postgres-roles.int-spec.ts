import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { createDatabase, postgresBinDir, startPostgresCluster, type LocalPostgres } from './postgres-cluster';

// deploy/postgres/10-service-roles.sh, run the way the postgres image runs it on a fresh volume (as the
// superuser on POSTGRES_DB), on a private cluster: roles are cluster-wide, so the suite's shared
// cluster is left alone. The service roles log in with a password (scram), as in the image.
const HBA = ['local all all trust', 'host all postgres 127.0.0.1/32 trust', 'host all all 127.0.0.1/32 scram-sha-256', ''].join('\n');

const SCRIPT = join(__dirname, '..', '..', '..', 'deploy', 'postgres', '10-service-roles.sh');
const DATABASE = 'video_jobs';
const run = promisify(execFile);

describe('deploy/postgres/10-service-roles.sh', () => {
  let pg: LocalPostgres;
  let dataDir: string;
  let databaseUrl: string;
  const clients: Client[] = [];

  const runScript = (env: Record<string, string>) => {
    const admin = new URL(pg.adminUrl);
    return run('sh', [SCRIPT], {
      env: { PATH: `${postgresBinDir()}:${process.env.PATH}`, PGHOST: admin.hostname, PGPORT: admin.port, POSTGRES_USER: 'postgres', POSTGRES_DB: DATABASE, ...env },
    });
  };

  const passwords = {
    POSTGRES_GATEWAY_PASSWORD: 'pgateway-secret',
    POSTGRES_JOBS_PASSWORD: 'pjobs-secret',
    POSTGRES_BILLING_PASSWORD: 'pbilling-secret',
    POSTGRES_WEBHOOK_DELIVERY_PASSWORD: 'pwebhooks-secret',
  };

  const passwordOf: Record<string, string> = {
    gateway: passwords.POSTGRES_GATEWAY_PASSWORD,
    jobs: passwords.POSTGRES_JOBS_PASSWORD,
    billing: passwords.POSTGRES_BILLING_PASSWORD,
    webhook_delivery: passwords.POSTGRES_WEBHOOK_DELIVERY_PASSWORD,
  };

  async function as(role: string, password = passwordOf[role]): Promise<Client> {
    const url = new URL(databaseUrl);
    url.username = role;
    if (password) url.password = password;
    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    clients.push(client);
    return client;
  }

  const errorOf = (work: Promise<unknown>) =>
    work.then(
      () => 'allowed',
      (error: Error) => error.message,
    );

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vj-pg-roles-'));
    // initdb trusts everyone; the second start reads the password rules.
    await (await startPostgresCluster({ dataDir })).stop();
    writeFileSync(join(dataDir, 'data', 'pg_hba.conf'), HBA);
    pg = await startPostgresCluster({ dataDir });
    databaseUrl = await createDatabase(pg.adminUrl, DATABASE);
    // Twice: a re-run on an existing volume changes nothing but the passwords.
    await runScript(passwords);
    await runScript(passwords);
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end()));
    await pg.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses to run without the passwords', async () => {
    const { POSTGRES_JOBS_PASSWORD: _omitted, ...withoutJobs } = passwords;
    await expect(runScript(withoutJobs)).rejects.toThrow(/POSTGRES_JOBS_PASSWORD/);
    const { POSTGRES_WEBHOOK_DELIVERY_PASSWORD: _left, ...withoutWebhooks } = passwords;
    await expect(runScript(withoutWebhooks)).rejects.toThrow(/POSTGRES_WEBHOOK_DELIVERY_PASSWORD/);
  });

  it('lets each role in with its password only', async () => {
    expect(await errorOf(as('jobs', passwords.POSTGRES_BILLING_PASSWORD))).toBe('password authentication failed for user "jobs"');
    expect(await errorOf(as('billing', 'guess'))).toBe('password authentication failed for user "billing"');
    expect(await errorOf(as('webhook_delivery', passwords.POSTGRES_BILLING_PASSWORD))).toBe('password authentication failed for user "webhook_delivery"');
    expect(await errorOf(as('gateway'))).toBe('allowed');
  });

  it('makes one login role per service with its password, none of them privileged', async () => {
    const admin = await as('postgres');
    const { rows } = await admin.query(
      `SELECT rolname, rolcanlogin, rolsuper, rolcreatedb, rolcreaterole, rolpassword LIKE 'SCRAM-SHA-256$%' AS has_password
       FROM pg_authid WHERE rolname IN ('gateway', 'jobs', 'billing', 'webhook_delivery') ORDER BY rolname`,
    );
    expect(rows).toEqual(
      ['billing', 'gateway', 'jobs', 'webhook_delivery'].map((rolname) => ({ rolname, rolcanlogin: true, rolsuper: false, rolcreatedb: false, rolcreaterole: false, has_password: true })),
    );
    const owners = await admin.query(
      `SELECT nspname, pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname IN ('identity', 'jobs', 'billing', 'webhooks') ORDER BY nspname`,
    );
    expect(owners.rows).toEqual([
      { nspname: 'billing', owner: 'billing' },
      { nspname: 'identity', owner: 'gateway' },
      { nspname: 'jobs', owner: 'jobs' },
      { nspname: 'webhooks', owner: 'webhook_delivery' },
    ]);
  });

  it('lets each service migrate its own schema the way its migrations do', async () => {
    for (const [role, schema] of [
      ['gateway', 'identity'],
      ['jobs', 'jobs'],
      ['billing', 'billing'],
      ['webhook_delivery', 'webhooks'],
    ]) {
      const client = await as(role);
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(`CREATE TABLE IF NOT EXISTS "${schema}"."migrations" (id serial PRIMARY KEY, name varchar NOT NULL)`);
      await client.query(`CREATE TABLE "${schema}"."owned" (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, note text)`);
      await client.query(`INSERT INTO "${schema}"."owned" (note) VALUES ('mine')`);
      expect((await client.query(`SELECT note FROM "${schema}"."owned"`)).rows).toEqual([{ note: 'mine' }]);
    }
  });

  it('keeps the jobs role out of the billing and identity schemas and out of public', async () => {
    const jobs = await as('jobs');
    expect(await errorOf(jobs.query('SELECT * FROM billing.owned'))).toBe('permission denied for schema billing');
    expect(await errorOf(jobs.query(`INSERT INTO billing.owned (note) VALUES ('not mine')`))).toBe('permission denied for schema billing');
    expect(await errorOf(jobs.query('CREATE TABLE billing.intruder (id int)'))).toBe('permission denied for schema billing');
    expect(await errorOf(jobs.query('DROP TABLE billing.owned'))).toBe('permission denied for schema billing');
    expect(await errorOf(jobs.query('DROP SCHEMA billing CASCADE'))).toBe('must be owner of schema billing');
    expect(await errorOf(jobs.query('SELECT * FROM identity.owned'))).toBe('permission denied for schema identity');
    expect(await errorOf(jobs.query('CREATE TABLE public.intruder (id int)'))).toBe('permission denied for schema public');
    expect(await errorOf(jobs.query('GRANT USAGE ON SCHEMA billing TO jobs'))).toMatch(/permission denied|must be owner/);
  });

  it('keeps the billing, gateway and webhook_delivery roles out of the jobs schema', async () => {
    for (const role of ['billing', 'gateway', 'webhook_delivery']) {
      const client = await as(role);
      expect(await errorOf(client.query('SELECT * FROM jobs.owned'))).toBe('permission denied for schema jobs');
      expect(await errorOf(client.query('UPDATE jobs.owned SET note = NULL'))).toBe('permission denied for schema jobs');
    }
  });

  it('keeps the webhook_delivery role out of the other schemas, and the others out of webhooks', async () => {
    const webhooks = await as('webhook_delivery');
    for (const schema of ['identity', 'billing']) {
      expect(await errorOf(webhooks.query(`SELECT * FROM ${schema}.owned`))).toBe(`permission denied for schema ${schema}`);
    }
    expect(await errorOf(webhooks.query('CREATE TABLE public.intruder (id int)'))).toBe('permission denied for schema public');
    for (const role of ['gateway', 'jobs', 'billing']) {
      const client = await as(role);
      expect(await errorOf(client.query('SELECT * FROM webhooks.owned'))).toBe('permission denied for schema webhooks');
      expect(await errorOf(client.query('DROP SCHEMA webhooks CASCADE'))).toBe('must be owner of schema webhooks');
    }
  });
});
