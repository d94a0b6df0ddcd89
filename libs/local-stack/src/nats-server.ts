import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { launchNatsServer, type NatsServerAuth } from './nats-process';

export type { NatsServerAuth } from './nats-process';

export interface LocalNatsServer {
  // Without credentials: with users, each client adds its own.
  url: string;
  stop(): Promise<void>;
}

export interface NatsServerOptions {
  storeDir?: string;
  port?: number;
  // Without it the server takes any connection (the integration tests' private servers).
  auth?: NatsServerAuth;
  // Receives the server's warnings and errors (refused connections, permission violations), one per call.
  log?: (line: string) => void;
}

// A private nats-server with JetStream on a free port and its own store directory.
export async function startNatsServer(options: NatsServerOptions = {}): Promise<LocalNatsServer> {
  const port = options.port ?? (await freePort());
  const ownStore = !options.storeDir;
  const storeDir = options.storeDir ?? mkdtempSync(join(tmpdir(), 'vj-nats-'));
  const server = launchNatsServer({ port, storeDir, auth: options.auth, log: options.log });
  try {
    await server.ready();
  } catch (error) {
    await server.signal('SIGKILL');
    throw error;
  }
  return {
    url: server.url,
    async stop() {
      await server.signal('SIGTERM');
      if (ownStore) rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
