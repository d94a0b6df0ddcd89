import { databaseEnv, defineEnv, env, logEnv, natsEnv, observabilityEnv, s3Env, type EnvValues } from '@vj/config';
import { DEFAULT_RETRY_SCHEDULE } from '@vj/webhooks';

export const webhooksEnv = defineEnv({
  ...natsEnv,
  ...databaseEnv,
  ...logEnv,
  ...observabilityEnv,
  // A webhook carries the job as GET answers it: result URLs presigned like the gateway's.
  ...s3Env,
  S3_PUBLIC_ENDPOINT: env.url({
    doc: 'S3 endpoint as clients outside the deployment reach it; presigned URLs are signed for this host',
    protocols: ['http', 'https'],
    optional: true,
  }),
  RESULT_URL_TTL_SECONDS: env.int({ doc: 'lifetime of the presigned GET URLs of job results', default: 86400, min: 1, max: 7 * 24 * 3600 }),
  WEBHOOK_ALLOW_HOSTS: env.string({
    doc: 'comma-separated hosts, IPs or CIDRs exempt from the private-network guard of webhook deliveries',
    optional: true,
  }),
  WEBHOOK_TIMEOUT_MS: env.int({ doc: 'time limit of one delivery attempt, connection to last byte read', default: 10_000, min: 100, max: 60_000 }),
  WEBHOOK_MAX_RESPONSE_BYTES: env.int({ doc: "most of a receiver's answer read; the first kilobyte is kept with the attempt", default: 64 * 1024, min: 1024 }),
  WEBHOOK_RETRY_SCHEDULE: env.string({
    doc: 'delays between attempts after a failed one (s, m, h), each stretched by up to 20% of jitter; after the last, the delivery is given up',
    default: DEFAULT_RETRY_SCHEDULE,
  }),
  WEBHOOK_RETENTION_DAYS: env.int({
    doc: 'delivered and given-up deliveries, with their attempts, are deleted this long after they were written (a job\'s body goes with them)',
    default: 7,
    min: 1,
  }),
  WEBHOOK_DISPATCH_BATCH: env.int({ doc: 'deliveries one instance sends at once', default: 50, min: 1, max: 1000 }),
  WEBHOOK_DISPATCH_IDLE_MS: env.int({ doc: 'how often an instance looks for due deliveries when none was announced (retries, other instances)', default: 1000, min: 10 }),
});

export type WebhooksConfig = EnvValues<typeof webhooksEnv.variables>;
