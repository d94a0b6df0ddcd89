import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { databaseUrl, startNatsServer, startPostgresCluster, startS3Server } from '@vj/local-stack';

export interface InfraEnv {
  NATS_URL: string;
  DATABASE_URL: string;
  S3_ENDPOINT: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
}

export interface LocalInfra {
  env: InfraEnv;
  // What was started here (the rest was given by URL), for the start-up banner.
  started: string[];
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

// NATS with JetStream, PostgreSQL and an S3 server as plain processes under dataDir, each unless the
// environment already points at one (NATS_URL, DATABASE_URL, S3_ENDPOINT).
export async function startLocalInfra(dataDir: string, source: NodeJS.ProcessEnv, durable = true): Promise<LocalInfra> {
  const stops: Array<() => Promise<void>> = [];
  const started: string[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    let natsUrl = source.NATS_URL;
    if (!natsUrl) {
      mkdirSync(join(dataDir, 'nats'), { recursive: true });
      const nats = await startNatsServer({ storeDir: join(dataDir, 'nats') });
      stops.push(nats.stop);
      natsUrl = nats.url;
      started.push(`NATS JetStream  ${nats.url}`);
    }
    let dbUrl = source.DATABASE_URL;
    if (!dbUrl) {
      const pg = await startPostgresCluster({ dataDir: join(dataDir, 'postgres'), durable });
      stops.push(pg.stop);
      dbUrl = await ensureDatabase(pg.adminUrl);
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
        NATS_URL: natsUrl,
        DATABASE_URL: dbUrl,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY: s3.accessKey ?? '',
        S3_SECRET_KEY: s3.secretKey ?? '',
      },
      started,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
