import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { NATS_USERS, natsPasswordVariable, type NatsUser } from '../nats/service-permissions';
import { databaseUrl, startNatsCluster, startNatsServer, startPostgresCluster, startS3Server, type LocalNatsCluster, type LocalPostgres, type NatsServerAuth } from '@vj/local-stack';
import { generateValue } from '../deploy-env';
import { natsPasswordEnv, renderNatsConfig } from '../nats-config';

export interface InfraEnv {
  // The operator's (the CLI's); each service connects as its own user (natsUrl).
  NATS_URL: string;
  DATABASE_URL: string;
  S3_ENDPOINT: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
}

export interface LocalInfra {
  env: InfraEnv;
  // The URL a NATS user connects with: its own user and password on the local server, or NATS_URL as
  // given for every user when the environment names a server.
  natsUrl(user: NatsUser): string;
  // What was started here (the rest was given by URL), for the start-up banner.
  started: string[];
  // The local NATS cluster when natsNodes > 1: the chaos bench kills and restarts a node through it.
  natsCluster?: LocalNatsCluster;
  // The local PostgreSQL when one was started here: the chaos bench stops and starts it.
  postgres?: LocalPostgres;
  stop(): Promise<void>;
}

const DATABASE_NAME = 'video_jobs';

async function ensureDatabase(adminUrl: string): Promise<string> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE_NAME]);
    if (!rowCount) await client.query(`CREATE DATABASE ${DATABASE_NAME}`);
  } finally {
    await client.end();
  }
  return databaseUrl(adminUrl, DATABASE_NAME);
}

export interface LocalInfraOptions {
  // false: PostgreSQL trades crash safety for speed (tests).
  durable?: boolean;
  // Receives nats-server's warnings and errors (permission violations among them).
  log?: (line: string) => void;
  // More than 1: NATS as a JetStream cluster of that many nodes (docker-compose.yml runs three, and
  // ensureStreams makes streams R3 on three); 1, the default: a single nats-server.
  natsNodes?: number;
}

function natsUserUrl(serverUrl: string, user: string, password: string): string {
  const url = new URL(serverUrl);
  url.username = encodeURIComponent(user);
  url.password = encodeURIComponent(password);
  return url.toString();
}

// The local NATS with production's users and permissions (scripts/nats-config.ts renders the
// configuration deploy/nats/nats.conf is made of). Passwords are new at every start, a letter then hex
// (decision 0020), and reach nats-server through its environment; the store under dataDir is kept.
// Every service is given node 1's URL and learns the others from it, like "nats" in docker-compose.yml.
async function startLocalNats(dataDir: string, nodes: number, log: ((line: string) => void) | undefined) {
  const passwords = Object.fromEntries(NATS_USERS.map((user) => [user, generateValue(natsPasswordVariable(user))])) as Record<NatsUser, string>;
  const configFile = join(dataDir, 'nats.conf');
  writeFileSync(configFile, renderNatsConfig(), { mode: 0o600 });
  // The jobs user may make the JetStream call the readiness check makes.
  const auth: NatsServerAuth = { configFile, env: natsPasswordEnv(passwords), readyAs: { user: 'jobs', pass: passwords.jobs } };
  const serverLog = log && ((line: string) => log(`[nats-server] ${line}`));
  const urlOf = (url: string) => (user: NatsUser) => natsUserUrl(url, user, passwords[user]);
  if (nodes > 1) {
    // Its own store: a single server's is not a cluster node's.
    const cluster = await startNatsCluster({ size: nodes, storeDir: join(dataDir, 'nats-cluster'), auth, log: serverLog });
    return { cluster, stop: cluster.stop, urlOf: urlOf(cluster.servers[0]), banner: `${cluster.servers.join(', ')}  (${nodes} nodes, a user per service)` };
  }
  mkdirSync(join(dataDir, 'nats'), { recursive: true });
  const server = await startNatsServer({ storeDir: join(dataDir, 'nats'), auth, log: serverLog });
  return { cluster: undefined, stop: server.stop, urlOf: urlOf(server.url), banner: `${server.url}  (a user per service)` };
}

// NATS with JetStream, PostgreSQL and an S3 server as plain processes under dataDir, each unless the
// environment already points at one (NATS_URL, DATABASE_URL, S3_ENDPOINT).
export async function startLocalInfra(dataDir: string, source: NodeJS.ProcessEnv, options: LocalInfraOptions = {}): Promise<LocalInfra> {
  const durable = options.durable ?? true;
  const stops: Array<() => Promise<void>> = [];
  const started: string[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    const givenNatsUrl = source.NATS_URL;
    let natsUrl: (user: NatsUser) => string;
    let natsCluster: LocalNatsCluster | undefined;
    if (givenNatsUrl) {
      natsUrl = () => givenNatsUrl;
    } else {
      mkdirSync(dataDir, { recursive: true });
      const nats = await startLocalNats(dataDir, options.natsNodes ?? 1, options.log);
      stops.push(nats.stop);
      natsUrl = nats.urlOf;
      natsCluster = nats.cluster;
      // The URLs without credentials: the banner never shows a password.
      started.push(`NATS JetStream  ${nats.banner}`);
    }
    let dbUrl = source.DATABASE_URL;
    let postgres: LocalPostgres | undefined;
    if (!dbUrl) {
      const pg = await startPostgresCluster({ dataDir: join(dataDir, 'postgres'), durable });
      postgres = pg;
      stops.push(pg.stop);
      dbUrl = await ensureDatabase(pg.localUrl);
      started.push(`PostgreSQL      ${dbUrl}`);
    }
    let s3 = { endpoint: source.S3_ENDPOINT ?? '', accessKey: source.S3_ACCESS_KEY, secretKey: source.S3_SECRET_KEY };
    if (!source.S3_ENDPOINT) {
      mkdirSync(join(dataDir, 's3'), { recursive: true });
      const server = await startS3Server({ directory: join(dataDir, 's3') });
      stops.push(server.stop);
      s3 = { endpoint: server.endpoint, accessKey: server.accessKey, secretKey: server.secretKey };
      started.push(`S3 (s3rver)     ${server.endpoint}`);
    }
    return {
      env: {
        NATS_URL: natsUrl('operator'),
        DATABASE_URL: dbUrl,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY: s3.accessKey ?? '',
        S3_SECRET_KEY: s3.secretKey ?? '',
      },
      natsUrl,
      started,
      natsCluster,
      postgres,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
