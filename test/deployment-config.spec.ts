import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { BILLING_RPC_METHODS, CONSUMERS, MEDIA_RPC_METHODS, WEBHOOKS_RPC_METHODS, RPC_METHODS, subjects, type BillingRpcMethod, type JobsRpcMethod, type MediaRpcMethod } from '@vj/contracts';
import { NATS_USERS, natsPasswordVariable, natsPermissions, SERVICE_MESSAGING, type NatsUser } from '../scripts/nats/service-permissions';
import { JobEventsConsumer } from '@vj/job-events';
import type { NatsConnection } from 'nats';
import { JOB_EVENTS_CONSUMER } from '../apps/billing/src/job-events/job-events-consumer';
import { BILLING_EVENTS_CONSUMER } from '../apps/jobs/src/billing-events/billing-events-consumer';
import { RENDER_WORKER_DEAD_LETTERS, REPORTS_CONSUMER } from '../apps/jobs/src/reports/reports-consumer';
import type { RenderWorkerConfig } from '../apps/render-worker/src/render-worker.env';
import { workConsumer } from '../apps/render-worker/src/work-consumer';
import { JOB_UPDATES_CONSUMER } from '../apps/webhook-delivery/src/intake/job-progress-intake';
import { composeReferences, envFileVariables, fillEnvFile, interpolate, looksSecret } from '../scripts/deploy-env';
import { environmentTable, SERVICE_ENVS } from '../scripts/env-catalogue';
import { NATS_CONFIG_PATH, RENDER_COMMAND, renderNatsConfig } from '../scripts/nats-config';

const root = join(__dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

interface ComposeService {
  environment?: Record<string, string>;
  [key: string]: unknown;
}
const composeText = read('docker-compose.yml');
const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService> };
const environmentOf = (service: string) => compose.services[service]?.environment ?? {};
const envExample = envFileVariables(read('.env.example'));

// Every string value of the parsed compose file, with where it is.
function strings(node: unknown, path: string): Array<{ path: string; value: string }> {
  if (typeof node === 'string') return [{ path, value: node }];
  if (Array.isArray(node)) return node.flatMap((item, i) => strings(item, `${path}[${i}]`));
  if (node && typeof node === 'object') return Object.entries(node).flatMap(([key, value]) => strings(value, `${path}.${key}`));
  return [];
}
const composeStrings = strings(compose, '');

// The whole compose file interpolated as Docker Compose does; every error of a missing variable.
function renderCompose(env: Record<string, string | undefined>) {
  const errors = new Set<string>();
  for (const { value } of composeStrings) for (const error of interpolate(value, env).errors) errors.add(error);
  const environments: Record<string, Record<string, string>> = {};
  for (const [name, service] of Object.entries(compose.services)) {
    environments[name] = Object.fromEntries(Object.entries(service.environment ?? {}).map(([key, value]) => [key, interpolate(String(value), env).value]));
  }
  return { errors: [...errors], environments };
}

// `docker compose` (v2 plugin) or `docker-compose` (v1, the Debian package `npm test` installs when it
// can): neither needs a daemon to render a file. Without one, the checks in code below stand in for it.
function findCompose(): string[] | undefined {
  for (const command of [['docker', 'compose'], ['docker-compose']]) {
    try {
      execFileSync(command[0], [...command.slice(1), 'version'], { stdio: 'ignore' });
      return command;
    } catch {
      // not installed
    }
  }
  return undefined;
}

const REQUIRED = /^\$\{([A-Za-z_][A-Za-z0-9_]*):\?[^}]+\}$/;
const URL_CREDENTIALS = /^[a-z]+:\/\/([^:/@]+):(.+)@[^@]+$/;

describe('deployment configuration', () => {
  it.each(Object.keys(SERVICE_ENVS))('docker-compose sets every variable %s requires', (service) => {
    const environment = environmentOf(service);
    const missing = SERVICE_ENVS[service].required().filter((name) => !(name in environment));
    expect(missing).toEqual([]);
  });

  it('docker-compose lets render workers scale (no fixed name or published port)', () => {
    const worker = compose.services['render-worker'] as Record<string, unknown>;
    expect(worker.container_name).toBeUndefined();
    expect(worker.ports).toBeUndefined();
  });

  it('the README lists every environment variable, as scripts/env-catalogue.ts prints them', () => {
    const readme = read('README.md');
    expect(readme).toContain(environmentTable());
  });
});

describe('deployment secrets', () => {
  it('gives no secret a default anywhere in docker-compose.yml', () => {
    const defaults = composeStrings.flatMap(({ path, value }) =>
      composeReferences(value)
        .filter((ref) => looksSecret(ref.name) && ref.operator !== ':?')
        .map((ref) => `${path}: \${${ref.name}${ref.operator}${ref.argument}}`),
    );
    expect(defaults).toEqual([]);
  });

  it('takes every secret-looking variable, and every password inside a URL, from a required variable', () => {
    const problems: string[] = [];
    for (const [service, definition] of Object.entries(compose.services)) {
      for (const [name, raw] of Object.entries(definition.environment ?? {})) {
        const value = String(raw);
        if (looksSecret(name) && !REQUIRED.test(value)) problems.push(`${service}.${name} = ${value}`);
        const credentials = URL_CREDENTIALS.exec(value);
        if (credentials && !REQUIRED.test(credentials[2])) problems.push(`${service}.${name}: the password in the URL is not a required variable`);
        if (!credentials && /:\/\/[^/]*@/.test(value)) problems.push(`${service}.${name}: credentials in a URL`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('names every variable of docker-compose.yml in .env.example, with no usable value', () => {
    const required = new Set(composeStrings.flatMap(({ value }) => composeReferences(value).filter((ref) => ref.operator === ':?').map((ref) => ref.name)));
    expect([...required].filter((name) => !envExample.has(name))).toEqual([]);
    expect([...envExample.keys()].filter((name) => !required.has(name))).toEqual([]);
    expect([...envExample].filter(([, value]) => value !== '')).toEqual([]);
  });

  // `docker compose config` needs the compose plugin (not installed here), so the same check runs in code.
  it('refuses to render without the environment, naming each missing secret', () => {
    const { errors } = renderCompose({});
    const missing = errors.map((error) => /required variable (\w+)/.exec(error)?.[1]).sort();
    expect(missing).toEqual([...envExample.keys()].sort());
    // .env.example as committed is refused too: every value is empty.
    expect(renderCompose(Object.fromEntries(envExample)).errors).toHaveLength(envExample.size);
  });

  it('renders once every variable of .env.example has a value, each service with its own credentials', () => {
    const env = Object.fromEntries(envFileVariables(fillEnvFile(read('.env.example'))));
    const { errors, environments } = renderCompose(env);
    expect(errors).toEqual([]);
    const userOf = (url: string) => {
      const parsed = new URL(url);
      return { user: parsed.username, password: decodeURIComponent(parsed.password) };
    };
    const natsUsers: Record<string, NatsUser> = {
      gateway: 'gateway',
      jobs: 'jobs',
      'render-worker': 'render-worker',
      billing: 'billing',
      'webhook-delivery': 'webhook-delivery',
      cli: 'operator',
    };
    for (const [service, user] of Object.entries(natsUsers)) {
      expect({ service, ...userOf(environments[service].NATS_URL) }).toEqual({ service, user, password: env[natsPasswordVariable(user)] });
    }
    // nats-server gets every password its configuration names.
    for (const node of ['nats-1', 'nats-2', 'nats-3']) {
      for (const user of NATS_USERS) expect(environments[node][natsPasswordVariable(user)]).toBe(env[natsPasswordVariable(user)]);
    }
    // A role name without a hyphen, so the SQL of the init script needs no quoting.
    const roles: Record<string, string> = { gateway: 'gateway', jobs: 'jobs', billing: 'billing', 'webhook-delivery': 'webhook_delivery', cli: 'gateway' };
    for (const [service, role] of Object.entries(roles)) {
      expect({ service, ...userOf(environments[service].DATABASE_URL) }).toEqual({ service, user: role, password: env[`POSTGRES_${role.toUpperCase()}_PASSWORD`] });
    }
    // One MinIO user per service; the root account only where the bucket and users are made.
    const s3Users = ['gateway', 'jobs', 'render-worker', 'webhook-delivery'].map((service) => environments[service].S3_ACCESS_KEY);
    expect(new Set(s3Users).size).toBe(4);
    expect(s3Users).not.toContain(env.MINIO_ROOT_USER);
    const withRoot = Object.entries(environments).filter(([, vars]) => Object.values(vars).includes(env.MINIO_ROOT_PASSWORD));
    expect(withRoot.map(([name]) => name).sort()).toEqual(['minio', 'minio-init']);
    // Result URLs in a webhook are signed for the host clients reach, the same as the gateway's.
    expect(environments['webhook-delivery'].S3_PUBLIC_ENDPOINT).toBe(environments.gateway.S3_PUBLIC_ENDPOINT);
  });

  const composeTool = findCompose();
  (composeTool ? it : it.skip)('docker compose config refuses an empty environment and renders a complete one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vj-compose-'));
    const config = (envFile: string) => {
      writeFileSync(join(dir, 'env'), envFile);
      const [command, ...args] = composeTool as string[];
      // Only PATH and HOME: a variable of the caller's environment must not fill a secret in.
      return execFileSync(command, [...args, '--project-directory', root, '-f', join(root, 'docker-compose.yml'), '--env-file', join(dir, 'env'), 'config'], {
        env: { PATH: process.env.PATH, HOME: dir },
        stdio: 'pipe',
        encoding: 'utf8',
      });
    };
    try {
      expect(() => config('')).toThrow(/NATS_|POSTGRES_|MINIO_|S3_/);
      expect(() => config(read('.env.example'))).toThrow(/see \.env\.example/);
      const filled = fillEnvFile(read('.env.example'));
      const rendered = parse(config(filled)) as { services: Record<string, ComposeService> };
      expect(new URL(String(rendered.services.jobs.environment?.NATS_URL)).password).toBe(envFileVariables(filled).get('NATS_JOBS_PASSWORD'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs the PostgreSQL init script on a fresh volume, with the roles the services connect as', () => {
    const postgres = compose.services.postgres as { volumes: string[] };
    expect(postgres.volumes).toContain('./deploy/postgres:/docker-entrypoint-initdb.d:ro');
    const script = read('deploy/postgres/10-service-roles.sh');
    for (const [role, schema] of [
      ['gateway', 'identity'],
      ['jobs', 'jobs'],
      ['billing', 'billing'],
      ['webhook_delivery', 'webhooks'],
    ]) {
      expect(script).toContain(`CREATE SCHEMA IF NOT EXISTS ${schema} AUTHORIZATION ${role};`);
    }
    // The image runs *.sh and *.sql files of that folder: only the one script is there.
    expect(readdirSync(join(root, 'deploy', 'postgres')).filter((file) => /\.(sh|sql)/.test(file))).toEqual(['10-service-roles.sh']);
  });
});

describe('MinIO policies (deploy/minio)', () => {
  interface Statement {
    Effect: string;
    Action: string[];
    Resource: string[];
    Condition?: { StringLike?: { 's3:prefix': string[] } };
  }
  const bucket = environmentOf('gateway').S3_BUCKET;
  const policy = (service: string) => JSON.parse(read(`deploy/minio/${service}.json`)) as { Statement: Statement[] };
  const glob = (pattern: string, value: string) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(value);

  // A small evaluator of our own policies (Allow statements, resource globs, the s3:prefix condition),
  // enough to state what each service may do; MinIO itself is not available here.
  function allows(service: string, action: string, object?: string, prefix?: string): boolean {
    const resource = object === undefined ? `arn:aws:s3:::${bucket}` : `arn:aws:s3:::${bucket}/${object}`;
    return policy(service).Statement.some((statement) => {
      if (statement.Effect !== 'Allow' || !statement.Action.includes(action)) return false;
      if (!statement.Resource.some((pattern) => glob(pattern, resource))) return false;
      const prefixes = statement.Condition?.StringLike?.['s3:prefix'];
      return !prefixes || (prefix !== undefined && prefixes.some((pattern) => glob(pattern, prefix)));
    });
  }

  const KNOWN_ACTIONS = ['s3:ListBucket', 's3:ListBucketMultipartUploads', 's3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'];

  it.each(['gateway', 'render-worker', 'jobs', 'webhook-delivery'])('%s: names only the bucket of docker-compose.yml, only Allow, only known S3 actions', (service) => {
    for (const statement of policy(service).Statement) {
      expect(statement.Effect).toBe('Allow');
      expect(statement.Action.filter((action) => !KNOWN_ACTIONS.includes(action))).toEqual([]);
      for (const resource of statement.Resource) expect(resource === `arn:aws:s3:::${bucket}` || resource.startsWith(`arn:aws:s3:::${bucket}/`)).toBe(true);
    }
    expect(environmentOf('minio-init').S3_BUCKET).toBe(bucket);
  });

  it('gateway: checks the bucket, presigns upload PUTs, stats uploads and presigns result GETs; deletes nothing', () => {
    expect(allows('gateway', 's3:ListBucket')).toBe(true); // HeadBucket (ensureBucket, /healthz)
    expect(allows('gateway', 's3:PutObject', 'uploads/acct/up')).toBe(true);
    expect(allows('gateway', 's3:GetObject', 'uploads/acct/up')).toBe(true);
    expect(allows('gateway', 's3:GetObject', 'results/acct/job/out.mp4')).toBe(true);
    expect(allows('gateway', 's3:PutObject', 'results/acct/job/out.mp4')).toBe(false);
    expect(allows('gateway', 's3:DeleteObject', 'uploads/acct/up')).toBe(false);
    expect(allows('gateway', 's3:GetObject', 'elsewhere/x')).toBe(false);
  });

  it('render-worker: reads uploads, writes and deletes results (multipart included), never writes uploads', () => {
    expect(allows('render-worker', 's3:ListBucket')).toBe(true);
    expect(allows('render-worker', 's3:ListBucketMultipartUploads')).toBe(true);
    expect(allows('render-worker', 's3:GetObject', 'uploads/acct/up')).toBe(true);
    for (const action of ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts']) {
      expect(allows('render-worker', action, 'results/acct/job/out.mp4')).toBe(true);
    }
    expect(allows('render-worker', 's3:PutObject', 'uploads/acct/up')).toBe(false);
    expect(allows('render-worker', 's3:DeleteObject', 'uploads/acct/up')).toBe(false);
  });

  it('jobs: lists the uploads prefix and deletes uploads and results, reads and writes nothing', () => {
    expect(allows('jobs', 's3:ListBucket', undefined, 'uploads/')).toBe(true);
    expect(allows('jobs', 's3:ListBucket', undefined, 'uploads/acct/')).toBe(true);
    expect(allows('jobs', 's3:ListBucket', undefined, 'results/acct/job/')).toBe(true);
    expect(allows('jobs', 's3:ListBucket', undefined, 'other/')).toBe(false);
    expect(allows('jobs', 's3:ListBucket')).toBe(false);
    expect(allows('jobs', 's3:DeleteObject', 'uploads/acct/up')).toBe(true);
    expect(allows('jobs', 's3:DeleteObject', 'results/acct/job/out.mp4')).toBe(true);
    expect(allows('jobs', 's3:GetObject', 'uploads/acct/up')).toBe(false);
    expect(allows('jobs', 's3:PutObject', 'results/acct/job/out.mp4')).toBe(false);
  });

  it('webhook-delivery: presigns result GETs only; reads no upload, lists, writes and deletes nothing', () => {
    expect(allows('webhook-delivery', 's3:GetObject', 'results/acct/job/out.mp4')).toBe(true);
    expect(allows('webhook-delivery', 's3:GetObject', 'uploads/acct/up')).toBe(false);
    expect(allows('webhook-delivery', 's3:ListBucket')).toBe(false);
    expect(allows('webhook-delivery', 's3:ListBucket', undefined, 'results/acct/job/')).toBe(false);
    for (const action of ['s3:PutObject', 's3:DeleteObject']) expect(allows('webhook-delivery', action, 'results/acct/job/out.mp4')).toBe(false);
  });

  it('minio-init makes the MinIO user of every service that has one, with the keys that service is given', () => {
    const init = read('deploy/minio/init.sh');
    const variable = (value: string | undefined) => composeReferences(String(value))[0]?.name;
    const withS3 = Object.keys(compose.services).filter((service) => environmentOf(service).S3_ACCESS_KEY !== undefined);
    expect(withS3.sort()).toEqual(['gateway', 'jobs', 'render-worker', 'webhook-delivery']);
    for (const service of withS3) {
      const [access, secret] = [variable(environmentOf(service).S3_ACCESS_KEY), variable(environmentOf(service).S3_SECRET_KEY)];
      expect(init).toContain(`"${service} ${access} ${secret}"`);
      expect(Object.keys(environmentOf('minio-init'))).toEqual(expect.arrayContaining([access, secret]));
    }
  });
});

describe('NATS permissions (deploy/nats/nats.conf)', () => {
  it(`is what scripts/render-nats-config.ts renders from the catalogue (else run: ${RENDER_COMMAND})`, () => {
    expect(readFileSync(NATS_CONFIG_PATH, 'utf8')).toBe(renderNatsConfig());
  });

  it('covers the durable consumers and dead-letter watches the services declare', () => {
    const owned = (user: NatsUser) => SERVICE_MESSAGING[user].consumers.map(({ stream, durable, advisoryDeadLetters }) => ({ stream, durable, advisoryDeadLetters }));
    const declared = (spec: { stream: string; durable: string; advisoryDeadLetters?: boolean }) => ({
      stream: spec.stream,
      durable: spec.durable,
      advisoryDeadLetters: spec.advisoryDeadLetters ?? true,
    });
    expect(owned('jobs')).toEqual([REPORTS_CONSUMER, BILLING_EVENTS_CONSUMER].map(declared));
    expect(owned('billing')).toEqual([JOB_EVENTS_CONSUMER].map(declared));
    expect(owned('render-worker')).toEqual([declared(workConsumer({} as RenderWorkerConfig))]);
    // Job events through libs/job-events, which terminates and logs a failing event itself (no advisory).
    const webhookEvents = new JobEventsConsumer({} as NatsConnection, { durable: CONSUMERS.webhooksJobEvents, handle: async () => undefined }).spec;
    expect(owned('webhook-delivery')).toEqual([{ ...declared(webhookEvents), advisoryDeadLetters: false }, declared(JOB_UPDATES_CONSUMER)]);
    expect(SERVICE_MESSAGING.jobs.deadLetterWatches).toEqual([RENDER_WORKER_DEAD_LETTERS]);
  });

  it('gives each RPC method to its callers, and serves it by its service only', () => {
    const permissions = natsPermissions();
    const requesters = (subject: string) => NATS_USERS.filter((user) => permissions[user].publish.includes(subject));
    const servers = (subject: string) => NATS_USERS.filter((user) => permissions[user].subscribe.includes(subject));
    for (const method of RPC_METHODS) expect(servers(subjects.jobsRpc(method))).toEqual(['jobs']);
    for (const method of BILLING_RPC_METHODS) expect(servers(subjects.billingRpc(method))).toEqual(['billing']);
    for (const method of MEDIA_RPC_METHODS) expect(servers(subjects.mediaRpc(method))).toEqual(['render-worker']);
    for (const method of WEBHOOKS_RPC_METHODS) expect(servers(subjects.webhooksRpc(method))).toEqual(['webhook-delivery']);
    expect(requesters(subjects.webhooksRpc('create_endpoint'))).toEqual(['gateway']);
    expect(requesters(subjects.billingRpc('grant'))).toEqual(['operator']);
    expect(requesters(subjects.billingRpc('price_list'))).toEqual(['gateway']);
    expect(requesters(subjects.jobsRpc('get'))).toEqual(['gateway', 'render-worker', 'webhook-delivery']);
    expect(requesters(subjects.jobsRpc('create'))).toEqual(['gateway']);
    expect(requesters(subjects.mediaRpc('probe'))).toEqual(['gateway']);
    expect(NATS_USERS.filter((user) => permissions[user].allowResponses)).toEqual(['jobs', 'render-worker', 'billing', 'webhook-delivery']);
  });

  it('picks up RPC methods added to the catalogues, reserved ones going to their one caller', () => {
    const permissions = natsPermissions({
      jobs: [...RPC_METHODS, 'delete', 'cancel_account', 'archive'],
      billing: [...BILLING_RPC_METHODS, 'extend_hold', 'refund'],
      media: [...MEDIA_RPC_METHODS, 'thumbnail'],
      webhooks: [...WEBHOOKS_RPC_METHODS],
    });
    const jobs = (m: string) => subjects.jobsRpc(m as JobsRpcMethod);
    const billing = (m: string) => subjects.billingRpc(m as BillingRpcMethod);
    expect(permissions.gateway.publish).toEqual(expect.arrayContaining([jobs('archive'), jobs('delete'), jobs('cancel_account'), billing('refund'), subjects.mediaRpc('thumbnail' as MediaRpcMethod)]));
    expect(permissions.gateway.publish).not.toContain(billing('extend_hold'));
    expect(permissions['render-worker'].publish).toContain(billing('extend_hold'));
    expect(permissions['render-worker'].publish).not.toContain(billing('refund'));
    expect(permissions.operator.publish).toEqual(expect.arrayContaining([jobs('delete'), jobs('cancel_account'), billing('grant')]));
    expect(permissions.operator.publish).not.toContain(jobs('archive'));
    expect(permissions.jobs.subscribe).toEqual(expect.arrayContaining([jobs('archive'), jobs('delete')]));
    expect(permissions.billing.subscribe).toEqual(expect.arrayContaining([billing('extend_hold'), billing('refund')]));
  });

  it('lets no user other than the owner publish into a stream', () => {
    const permissions = natsPermissions();
    const publishers = (subject: string) => NATS_USERS.filter((user) => permissions[user].publish.includes(subject));
    expect(publishers(subjects.work('clean-audio-video'))).toEqual(['jobs']);
    expect(publishers(subjects.jobEvent('completed'))).toEqual(['jobs']);
    expect(publishers(subjects.report('succeeded'))).toEqual(['render-worker']);
    expect(publishers(subjects.billingEvent('charge_captured'))).toEqual(['billing']);
  });
});
