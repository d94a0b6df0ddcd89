import { join } from 'node:path';
import type { NatsUser } from '../nats/service-permissions';
import { freePort, waitFor } from '@vj/local-stack';
import { startLocalInfra, type LocalInfra } from './local-infra';
import { REPO_ROOT, runOnce, startService, type ServiceProcess } from './service-process';

export interface StackOptions {
  dataDir: string;
  port?: number;
  renderWorkers?: number;
  // Extra environment for every service (tests allow 127.0.0.1 transloads this way).
  env?: NodeJS.ProcessEnv;
  durable?: boolean;
  log?: (line: string) => void;
  // NATS nodes started locally (LocalInfraOptions.natsNodes); the cluster is infra.natsCluster.
  natsNodes?: number;
}

export interface RunningStack {
  apiUrl: string;
  apiKey: string;
  accountId: string;
  // infra.env.NATS_URL is the operator's (for the CLI); infra.natsUrl(user) gives a service's.
  infra: LocalInfra;
  services: ServiceProcess[];
  // Runs the operator's CLI (`cli account create ...`) against this stack; resolves with its output.
  cli(args: string[]): Promise<string>;
  // Starts one more render worker (the tests replace a killed one this way).
  addRenderWorker(): ServiceProcess;
  // Starts one more instance of a service (a test brings a stopped or killed one back this way, or
  // scales out: another gateway needs its own port).
  addService(app: StackApp, env?: NodeJS.ProcessEnv): ServiceProcess;
  stop(): Promise<void>;
}

export type StackApp = 'jobs' | 'billing' | 'gateway' | 'webhook-delivery';

const entry = (app: string, file = 'main.ts') => join('apps', app, 'src', file);
const CLI = entry('gateway', join('cli', 'main.ts'));

// The development account's starting credits, so jobs run from the first start. The fixed key makes the
// grant happen once per account, however often the stack restarts.
const DEV_CREDITS_KEY = 'dev-account-starting-credits';

function devAccountCredits(source: NodeJS.ProcessEnv): number {
  const raw = source.DEV_ACCOUNT_CREDITS || '1000000';
  if (!/^[1-9]\d*$/.test(raw)) throw new Error(`DEV_ACCOUNT_CREDITS must be a whole number of credits from 1, got "${raw}"`);
  return Number(raw);
}

// The whole platform as plain processes: infrastructure, migrations, the development account, the
// five services; resolves once GET /healthz answers 200 and the development account has its credits.
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const source = { ...process.env, ...options.env };
  const devCredits = devAccountCredits(source);
  const infra = await startLocalInfra(options.dataDir, source, { durable: options.durable ?? true, log, natsNodes: options.natsNodes });
  const services: ServiceProcess[] = [];
  const stop = async () => {
    await Promise.all(services.map((s) => s.stop()));
    await infra.stop();
  };
  try {
    const port = options.port ?? (source.PORT ? Number(source.PORT) : await freePort());
    // The converted person model is kept with the rest of the stack's data. NATS_URL here is the
    // operator's: the migrations do not use NATS, the CLI connects as the operator.
    const env: NodeJS.ProcessEnv = { MATTING_MODEL_CACHE_DIR: join(options.dataDir, 'models'), ...source, ...infra.env, PORT: String(port) };
    // Each service connects to NATS as its own user, with its permissions (deploy/nats/nats.conf).
    const serviceEnv = (user: NatsUser): NodeJS.ProcessEnv => ({ ...env, NATS_URL: infra.natsUrl(user) });
    await Promise.all(['jobs', 'gateway', 'billing', 'webhook-delivery'].map((app) => runOnce(entry(app, 'migrate.ts'), [], env)));
    const account = JSON.parse(await runOnce(CLI, ['account', 'ensure-dev', '--key-file', join(options.dataDir, 'dev-api-key')], env)) as {
      account_id: string;
      api_key: string;
    };

    services.push(startService('jobs', entry('jobs'), serviceEnv('jobs'), log));
    services.push(startService('billing', entry('billing'), serviceEnv('billing'), log));
    services.push(startService('webhook-delivery', entry('webhook-delivery'), serviceEnv('webhook-delivery'), log));
    const addRenderWorker = () => {
      const name = `render-worker-${services.filter((s) => s.name.startsWith('render-worker')).length + 1}`;
      const worker = startService(name, entry('render-worker'), serviceEnv('render-worker'), log);
      services.push(worker);
      return worker;
    };
    for (let i = 1; i <= (options.renderWorkers ?? 1); i++) addRenderWorker();
    services.push(startService('gateway', entry('gateway'), serviceEnv('gateway'), log));
    const addService = (app: StackApp, extra: NodeJS.ProcessEnv = {}) => {
      const service = startService(app, entry(app), { ...serviceEnv(app), ...extra }, log);
      services.push(service);
      return service;
    };

    const apiUrl = `http://127.0.0.1:${port}`;
    await waitFor(
      'GET /healthz',
      async () => {
        const dead = services.find((s) => s.child.exitCode !== null);
        if (dead) throw new Error(`${dead.name} exited with code ${dead.child.exitCode}`);
        return (await fetch(`${apiUrl}/healthz`)).status === 200;
      },
      120_000,
      250,
    );
    // Through billing's RPC, so only once billing answers (/healthz says it does).
    await runOnce(CLI, ['credits', 'grant', '--account', account.account_id, '--amount', String(devCredits), '--idempotency-key', DEV_CREDITS_KEY], env);
    const cli = (args: string[]) => runOnce(CLI, args, env);
    return { apiUrl, apiKey: account.api_key, accountId: account.account_id, infra, services, cli, addRenderWorker, addService, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export const DEFAULT_DATA_DIR = join(REPO_ROOT, '.data');
