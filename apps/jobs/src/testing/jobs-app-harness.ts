import { createDatabase, startNatsServer, startS3Server, type LocalNatsServer, type LocalS3Server } from '@vj/local-stack';
import { JetStreamPublisher, JobsRpcClient } from '@vj/messaging';
import type { RunningNatsService } from '@vj/service-boot';
import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import { Client } from 'pg';
import { createJobsApp } from '../app/create-jobs-app';
import { jobsEnv } from '../jobs.env';

// The jobs service booted as main.ts boots it, on a NATS server, an S3 server and a database of its
// own, with a client of each for the test to drive it through.
export interface JobsAppHarness {
  nats: LocalNatsServer;
  jobs: RunningNatsService;
  nc: NatsConnection;
  jsm: JetStreamManager;
  rpc: JobsRpcClient;
  publisher: JetStreamPublisher;
  db: Client;
  stop(): Promise<void>;
}

export async function startJobsApp(databaseName: string, env: Record<string, string> = {}): Promise<JobsAppHarness> {
  const started: Partial<JobsAppHarness> & { s3?: LocalS3Server } = {};
  const stop = async () => {
    await started.jobs?.stop();
    await started.db?.end();
    await started.nc?.close();
    await started.nats?.stop();
    await started.s3?.stop();
  };
  try {
    [started.nats, started.s3] = await Promise.all([startNatsServer(), startS3Server()]);
    const databaseUrl = await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, databaseName);
    started.jobs = await createJobsApp(
      jobsEnv.parse({
        NATS_URL: started.nats.url,
        DATABASE_URL: databaseUrl,
        S3_ENDPOINT: started.s3.endpoint,
        S3_ACCESS_KEY: started.s3.accessKey,
        S3_SECRET_KEY: started.s3.secretKey,
        LOG_LEVEL: 'fatal',
        SWEEP_INTERVAL_SECONDS: '1',
        OUTBOX_POLL_MS: '100',
        ...env,
      }),
    );
    started.nc = await connect({ servers: started.nats.url });
    started.jsm = await started.nc.jetstreamManager();
    started.db = new Client({ connectionString: databaseUrl });
    await started.db.connect();
    return { ...(started as Required<typeof started>), rpc: new JobsRpcClient(started.nc), publisher: new JetStreamPublisher(started.nc), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
