import { spawn } from 'node:child_process';
import { connect, type NatsConnection } from 'nats';
import { waitFor } from './wait-for';

// Users and permissions from a configuration file (the local stack's, rendered like deploy/nats/nats.conf).
export interface NatsServerAuth {
  configFile: string;
  // Added to nats-server's environment: the passwords the configuration reads as $VARIABLE.
  env: Record<string, string>;
  // The user the readiness check connects as; it must be allowed $JS.API.INFO.
  readyAs: { user: string; pass: string };
}

export interface NatsProcessOptions {
  port: number;
  storeDir: string;
  // Without it the server takes any connection (the integration tests' private servers).
  auth?: NatsServerAuth;
  // Receives the server's warnings and errors (refused connections, permission violations), one per call.
  log?: (line: string) => void;
  // More flags: a cluster node's name, cluster and routes (they override the configuration file).
  args?: string[];
}

export interface NatsProcess {
  // Without credentials: with users, each client adds its own.
  url: string;
  // Sends the signal unless it has exited, then waits for the exit.
  signal(signal: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  // Resolves once it answers the JetStream API as auth.readyAs and `accept` approves its INFO; the
  // error names the server's last words if it exited.
  ready(accept?: (nc: NatsConnection) => boolean, timeoutMs?: number): Promise<void>;
}

// nats-server logs this at every start with plain-text passwords; decision 0020 names that limit.
const PLAINTEXT_PASSWORD_WARNING = 'Plaintext passwords detected';

// One nats-server with JetStream on 127.0.0.1, its store in storeDir.
export function launchNatsServer(options: NatsProcessOptions): NatsProcess {
  const { auth, log } = options;
  const args = [...(auth ? ['-c', auth.configFile] : []), '-a', '127.0.0.1', '-p', String(options.port), '-js', '-sd', options.storeDir, ...(options.args ?? [])];
  const child = spawn('nats-server', args, { env: { ...process.env, ...auth?.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let partial = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stderr = (stderr + text).slice(-4000);
    if (!log) return;
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (/\[(ERR|WRN|FTL)\]/.test(line) && !line.includes(PLAINTEXT_PASSWORD_WARNING)) log(line);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', () => undefined);
  const running = () => child.exitCode === null && child.signalCode === null;
  const url = `nats://127.0.0.1:${options.port}`;
  return {
    url,
    async signal(signal) {
      if (running()) child.kill(signal);
      await exited;
    },
    ready: (accept = () => true, timeoutMs = 15_000) =>
      waitFor(
        `nats-server on ${url}`,
        async () => {
          if (!running()) throw new Error(`nats-server exited: ${stderr}`);
          const nc = await connect({ servers: url, timeout: 1_000, ...auth?.readyAs });
          try {
            // Answered only where JetStream is up: on a cluster, once it has a meta leader.
            await nc.jetstreamManager();
            return accept(nc);
          } finally {
            await nc.close();
          }
        },
        timeoutMs,
        100,
      ),
  };
}
