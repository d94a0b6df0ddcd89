import { databaseEnv, defineEnv, env, logEnv, natsEnv, observabilityEnv, s3Env, type EnvValues } from '@vj/config';

// S3 caps presigned URLs at 7 days.
const PRESIGN_MAX_SECONDS = 7 * 24 * 3600;

export const gatewayEnv = defineEnv({
  PORT: env.int({ doc: 'HTTP port of the public API', default: 3000, min: 1, max: 65535 }),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: env.int({
    doc: "how long an idle client connection is kept open; above every load balancer's and client's own idle timeout (AWS ALB 60 s), so the client always closes first and never sends a request on a connection the gateway is closing",
    default: 65,
    min: 1,
    max: 3600,
  }),
  HTTP_HEADERS_TIMEOUT_SECONDS: env.int({ doc: "how long a request's headers may take to arrive once it starts (slow clients are cut off)", default: 30, min: 1, max: 600 }),
  ...natsEnv,
  ...databaseEnv,
  ...s3Env,
  S3_PUBLIC_ENDPOINT: env.url({
    doc: 'S3 endpoint as clients outside the deployment reach it; presigned URLs are signed for this host',
    protocols: ['http', 'https'],
    optional: true,
  }),
  UPLOAD_MAX_BYTES: env.int({ doc: 'largest upload sent as one PUT; a larger file_size is declared a multipart upload (413 when it asks for one PUT)', default: 2 * 1024 ** 3, min: 1 }),
  // The render workers copy an upload to WORK_DIR: raise their UPLOAD_INPUT_MAX_BYTES, and their disks, with it.
  UPLOAD_MULTIPART_MAX_BYTES: env.int({ doc: 'largest multipart upload, and largest uploaded video a job accepts (413 above)', default: 50 * 1024 ** 3, min: 1 }),
  UPLOAD_URL_TTL_SECONDS: env.int({ doc: 'lifetime of the presigned PUT URL of an upload, and of each part URL of a multipart one', default: 3600, min: 1, max: PRESIGN_MAX_SECONDS }),
  // S3 takes parts of 5 MiB to 5 GiB, all but the last.
  UPLOAD_PART_BYTES: env.int({
    doc: 'size of the parts of a multipart upload (larger where the file would need more than 10,000); a part is what a failed connection sends again',
    default: 16 * 1024 ** 2,
    min: 5 * 1024 ** 2,
    max: 5 * 1024 ** 3,
  }),
  UPLOAD_RETENTION_HOURS: env.int({
    doc: 'an upload no PROCESSING job reads is deleted this long after it was PUT; an upload a job read is deleted once that job ended',
    default: 24,
    min: 1,
  }),
  RESULT_URL_TTL_SECONDS: env.int({ doc: 'lifetime of the presigned GET URLs of job results', default: 86400, min: 1, max: PRESIGN_MAX_SECONDS }),
  RPC_TIMEOUT_MS: env.int({ doc: 'how long the gateway waits for the jobs or billing service to answer', default: 5000, min: 100 }),
  ESTIMATE_PROBE_TIMEOUT_MS: env.int({
    doc: "how long a quote waits for a render worker to probe the input's duration; a try that passes it is made once more, and past the second the job type's maximum duration is quoted (basis max_duration_timed_out)",
    default: 3000,
    min: 100,
  }),
  ESTIMATE_DURATION_TTL_SECONDS: env.int({
    doc: "how long an input's probed duration is reused for the same account's quotes; concurrent quotes of one input always share one probe",
    default: 600,
    min: 1,
  }),
  API_KEY_CACHE_SECONDS: env.int({
    doc: 'how long a resolved API key stays cached while unused; a revocation, suspension or limit change clears it at once on every instance',
    default: 300,
    min: 1,
  }),
  SETTLED_JOB_CACHE_SECONDS: env.int({
    doc: 'how long a finished and charged job is answered from memory; a deletion through another gateway instance, or the retention expiry, shows at most this late (0: never cached)',
    default: 2,
    min: 0,
    max: 60,
  }),
  PRICE_LIST_CACHE_SECONDS: env.int({
    doc: "how long billing's current price list is kept for quotes; a new price version reaches creates and estimates at most this late (0: asked for every quote)",
    default: 10,
    min: 0,
    max: 300,
  }),
  RATE_LIMITS: env.string({ doc: 'on: the token buckets below apply; off only to measure their cost (npm run bench:rate-limit), never in production', default: 'on', choices: ['on', 'off'] }),
  RATE_LIMIT_READS_PER_SECOND: env.int({ doc: "refill rate of each API key's bucket for reads (GET)", default: 50, min: 1 }),
  RATE_LIMIT_READ_BURST: env.int({ doc: "size of each API key's bucket for reads: how many may come at once", default: 100, min: 1 }),
  RATE_LIMIT_WRITES_PER_SECOND: env.int({
    doc: "refill rate of each API key's bucket for creates, estimates, uploads, cancels and deletes",
    default: 20,
    min: 1,
  }),
  RATE_LIMIT_WRITE_BURST: env.int({ doc: "size of each API key's bucket for creates, estimates, uploads, cancels and deletes", default: 60, min: 1 }),
  RATE_LIMIT_UNAUTHENTICATED_PER_SECOND: env.int({ doc: 'refill rate of the bucket of each client address for requests without a valid API key', default: 10, min: 1 }),
  RATE_LIMIT_UNAUTHENTICATED_BURST: env.int({ doc: 'size of the bucket of each client address for requests without a valid API key', default: 50, min: 1 }),
  ACCOUNT_MAX_PROCESSING_JOBS: env.int({ doc: 'most jobs an account may have PROCESSING at once (a create past it is 429)', default: 50, min: 1 }),
  JOB_FOLLOWERS_PER_ACCOUNT: env.int({
    doc: "most event streams (GET .../events) and Prefer: wait requests an account may hold open at once on one gateway instance (429 past it; a create's wait is skipped instead)",
    default: 20,
    min: 1,
  }),
  SSE_HEARTBEAT_SECONDS: env.int({ doc: "how often a job's event stream sends a comment line while nothing happens, so proxies keep it open", default: 15, min: 1, max: 300 }),
  ...logEnv,
  ...observabilityEnv,
});

export type GatewayConfig = EnvValues<typeof gatewayEnv.variables>;
