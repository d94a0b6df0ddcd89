import { databaseEnv, defineEnv, env, logEnv, natsEnv } from '@vj/config';

export const jobsEnv = defineEnv({
  ...natsEnv,
  ...databaseEnv,
  ...logEnv,
  CLEAN_AUDIO_TIMEOUT_SECONDS: env.int({ doc: 'time limit of a clean-audio-video job, from creation', default: 3600, min: 1 }),
  BACKGROUND_REMOVAL_TIMEOUT_SECONDS: env.int({ doc: 'time limit of a video-background-removal job, from creation', default: 1800, min: 1 }),
  JOB_TIMEOUT_GRACE_SECONDS: env.int({ doc: 'extra time before the sweeper fails a job past its limit (the worker reports timeouts itself first)', default: 120, min: 0 }),
  SWEEP_INTERVAL_SECONDS: env.int({ doc: 'how often stale jobs and expired idempotency keys are swept', default: 30, min: 1 }),
  OUTBOX_POLL_MS: env.int({ doc: 'outbox relay poll interval; commits also nudge it', default: 200, min: 10 }),
});

export type JobsConfig = ReturnType<typeof jobsEnv.parse>;
