import { databaseEnv, defineEnv, env, logEnv, natsEnv, observabilityEnv, s3Env } from '@vj/config';

export const jobsEnv = defineEnv({
  ...natsEnv,
  ...databaseEnv,
  ...logEnv,
  ...observabilityEnv,
  // The retention sweeper deletes uploads and results (decision 0024).
  ...s3Env,
  UPLOAD_RETENTION_HOURS: env.int({ doc: 'an upload no PROCESSING job reads is deleted this long after it was PUT; an upload a job read is deleted once that job ended', default: 24, min: 1 }),
  RESULT_RETENTION_DAYS: env.int({ doc: 'result files are deleted this long after their job completed; the job then reads as 404 not_found', default: 7, min: 1 }),
  RETENTION_SWEEP_INTERVAL_SECONDS: env.int({ doc: 'how often deleted and expired files, the inputs of ended jobs and old uploads are deleted', default: 300, min: 1 }),
  JOB_QUEUE_TIMEOUT_SECONDS: env.int({
    doc: 'how long a job may wait, from its creation, for a worker to start it; past it the sweeper fails it with timeout (queue_timeout), nothing charged. Once started, the worker\'s own processing limits apply',
    default: 86_400,
    min: 1,
  }),
  JOB_TIMEOUT_GRACE_SECONDS: env.int({ doc: 'extra time before the sweeper fails a job past its deadline with timeout (a live worker reports its own timeout first)', default: 120, min: 0 }),
  SWEEP_INTERVAL_SECONDS: env.int({ doc: 'how often stale jobs and expired idempotency keys are swept', default: 30, min: 1 }),
  SEGMENTS_IN_FLIGHT_PER_ACCOUNT: env.int({
    doc: 'pieces of one account\'s long background removals (plate pass, segments, join) sent to the render workers and not yet done, at most; the rest wait in the jobs service, so one account\'s long videos leave the work stream to the others\' jobs (decision 0101)',
    default: 4,
    min: 1,
  }),
  OUTBOX_POLL_MS: env.int({ doc: 'outbox relay poll interval; commits also nudge it', default: 200, min: 10 }),
});

export type JobsConfig = ReturnType<typeof jobsEnv.parse>;
