import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';
import { launchNatsServer, type NatsProcess, type NatsServerAuth } from './nats-process';

export interface LocalNatsNode {
  name: string;
  url: string;
  // A crash: SIGKILL, no goodbye to the cluster.
  kill(): Promise<void>;
  // Kills it if it runs, then starts it again on the same ports and store; resolves once it is back in
  // the cluster (its INFO names every node, JetStream answers through it).
  restart(): Promise<void>;
}

export interface LocalNatsCluster {
  nodes: LocalNatsNode[];
  // Every node's client URL, for a connection that fails over.
  servers: string[];
  stop(): Promise<void>;
}

export interface NatsClusterOptions {
  size?: number;
  // Each node's store is a folder named after it in here; without it, a temporary folder stop() removes.
  storeDir?: string;
  // The same users on every node; routes between the nodes take no credentials (127.0.0.1 only).
  auth?: NatsServerAuth;
  // A node's warnings and errors, each line after its name.
  log?: (line: string) => void;
}

const READY_MS = 30_000;

// A JetStream cluster of nats-servers on free ports (docker-compose.yml runs three), for tests and the
// chaos bench that lose a node mid-burst. Ready once JetStream has a meta leader and every node knows
// every other: clients connected to one node learn the others from its INFO (connect_urls).
export async function startNatsCluster(options: NatsClusterOptions = {}): Promise<LocalNatsCluster> {
  const size = options.size ?? 3;
  const clientPorts = await Promise.all(Array.from({ length: size }, () => freePort()));
  const routePorts = await Promise.all(Array.from({ length: size }, () => freePort()));
  const ownStore = !options.storeDir;
  const root = options.storeDir ?? mkdtempSync(join(tmpdir(), 'vj-nats-cluster-'));
  const routes = routePorts.map((port) => `nats://127.0.0.1:${port}`).join(',');
  const everyNode = (nc: { info?: { connect_urls?: string[] } }) => (nc.info?.connect_urls?.length ?? 0) >= size;
  const processes: NatsProcess[] = [];
  const nodes: LocalNatsNode[] = clientPorts.map((port, i) => {
    const name = `n${i + 1}`;
    const storeDir = join(root, name);
    mkdirSync(storeDir, { recursive: true });
    const launch = () =>
      launchNatsServer({
        port,
        storeDir,
        auth: options.auth,
        log: options.log && ((line) => options.log?.(`${name} ${line}`)),
        args: ['--server_name', name, '--cluster_name', 'vj', '--cluster', `nats://127.0.0.1:${routePorts[i]}`, '--routes', routes],
      });
    processes[i] = launch();
    return {
      name,
      url: processes[i].url,
      kill: () => processes[i].signal('SIGKILL'),
      async restart() {
        await processes[i].signal('SIGKILL');
        processes[i] = launch();
        await processes[i].ready(everyNode, READY_MS);
      },
    };
  });
  const stop = async () => {
    await Promise.all(processes.map((node) => node.signal('SIGTERM')));
    if (ownStore) rmSync(root, { recursive: true, force: true });
  };
  try {
    await Promise.all(processes.map((node) => node.ready(everyNode, READY_MS)));
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes, servers: nodes.map((node) => node.url), stop };
}
