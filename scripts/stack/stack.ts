import { join } from 'node:path';
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
}

export interface RunningStack {
  apiUrl: string;
  apiKey: string;
  accountId: string;
  infra: LocalInfra;
  services: ServiceProcess[];
  // Starts one more render worker (the tests replace a killed one this way).
  addRenderWorker(): ServiceProcess;
  stop(): Promise<void>;
}

const entry = (app: string, file = 'main.ts') => join('apps', app, 'src', file);

// The whole platform as plain processes: infrastructure, migrations, the development account, the
// four services; resolves once GET /healthz answers 200.
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const source = { ...process.env, ...options.env };
  const infra = await startLocalInfra(options.dataDir, source, options.durable ?? true);
  const services: ServiceProcess[] = [];
  const stop = async () => {
    await Promise.all(services.map((s) => s.stop()));
    await infra.stop();
  };
  try {
    const port = options.port ?? (source.PORT ? Number(source.PORT) : await freePort());
    // The converted person model is kept with the rest of the stack's data.
    const env: NodeJS.ProcessEnv = { MATTING_MODEL_CACHE_DIR: join(options.dataDir, 'models'), ...source, ...infra.env, PORT: String(port) };
    await Promise.all([runOnce(entry('jobs', 'migrate.ts'), [], env), runOnce(entry('gateway', 'migrate.ts'), [], env)]);
    const account = JSON.parse(
      await runOnce(entry('gateway', join('cli', 'main.ts')), ['account', 'ensure-dev', '--key-file', join(options.dataDir, 'dev-api-key')], env),
    ) as { account_id: string; api_key: string };

    services.push(startService('jobs', entry('jobs'), env, log));
    services.push(startService('billing', entry('billing'), env, log));
    const addRenderWorker = () => {
      const name = `render-worker-${services.filter((s) => s.name.startsWith('render-worker')).length + 1}`;
      const worker = startService(name, entry('render-worker'), env, log);
      services.push(worker);
      return worker;
    };
    for (let i = 1; i <= (options.renderWorkers ?? 1); i++) addRenderWorker();
    services.push(startService('gateway', entry('gateway'), env, log));

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
    return { apiUrl, apiKey: account.api_key, accountId: account.account_id, infra, services, addRenderWorker, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export const DEFAULT_DATA_DIR = join(REPO_ROOT, '.data');
