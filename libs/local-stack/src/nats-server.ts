import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { freePort } from './free-port';
import { waitFor } from './wait-for';

export interface LocalNatsServer {
  url: string;
  stop(): Promise<void>;
}

// A private nats-server with JetStream on a free port and its own store directory.
export async function startNatsServer(options: { storeDir?: string; port?: number } = {}): Promise<LocalNatsServer> {
  const port = options.port ?? (await freePort());
  const ownStore = !options.storeDir;
  const storeDir = options.storeDir ?? mkdtempSync(join(tmpdir(), 'vj-nats-'));
  const child: ChildProcess = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', () => undefined);
  const url = `nats://127.0.0.1:${port}`;
  try {
    await waitFor(`nats-server on ${url}`, async () => {
      if (child.exitCode !== null) throw new Error(`nats-server exited: ${stderr}`);
      const nc = await connect({ servers: url, timeout: 500 });
      await nc.jetstreamManager();
      await nc.close();
      return true;
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      if (ownStore) rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
