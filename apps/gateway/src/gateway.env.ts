import { databaseEnv, defineEnv, env, logEnv, natsEnv, s3Env, type EnvValues } from '@vj/config';

// S3 caps presigned URLs at 7 days.
const PRESIGN_MAX_SECONDS = 7 * 24 * 3600;

export const gatewayEnv = defineEnv({
  PORT: env.int({ doc: 'HTTP port of the public API', default: 3000, min: 1, max: 65535 }),
  ...natsEnv,
  ...databaseEnv,
  ...s3Env,
  S3_PUBLIC_ENDPOINT: env.url({
    doc: 'S3 endpoint as clients outside the deployment reach it; presigned URLs are signed for this host',
    protocols: ['http', 'https'],
    optional: true,
  }),
  UPLOAD_MAX_BYTES: env.int({ doc: 'largest upload or uploaded video a job accepts (413 above)', default: 2 * 1024 ** 3, min: 1 }),
  UPLOAD_URL_TTL_SECONDS: env.int({ doc: 'lifetime of the presigned PUT URL of an upload', default: 3600, min: 1, max: PRESIGN_MAX_SECONDS }),
  RESULT_URL_TTL_SECONDS: env.int({ doc: 'lifetime of the presigned GET URLs of job results', default: 86400, min: 1, max: PRESIGN_MAX_SECONDS }),
  RPC_TIMEOUT_MS: env.int({ doc: 'how long the gateway waits for the jobs or billing service to answer', default: 5000, min: 100 }),
  ESTIMATE_PROBE_TIMEOUT_MS: env.int({
    doc: "how long a quote waits for a render worker to probe the input's duration; past it the job type's maximum duration is quoted",
    default: 3000,
    min: 100,
  }),
  ESTIMATE_DURATION_TTL_SECONDS: env.int({
    doc: "how long an input's probed duration is reused for the same account's quotes; concurrent quotes of one input always share one probe",
    default: 600,
    min: 1,
  }),
  ...logEnv,
});

export type GatewayConfig = EnvValues<typeof gatewayEnv.variables>;
