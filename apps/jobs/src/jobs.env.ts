import { databaseEnv, defineEnv, env, logEnv, natsEnv } from '@vj/config';

export const jobsEnv = defineEnv({
  ...natsEnv,
  ...databaseEnv,
  ...logEnv,
  CLEAN_AUDIO_TIMEOUT_SECONDS: env.int({ doc: 'sweeper deadline of a clean-audio-video job no worker has started, from creation; once started, the worker\'s own deadline applies', default: 3600, min: 1 }),
  BACKGROUND_REMOVAL_TIMEOUT_SECONDS: env.int({ doc: 'sweeper deadline of a video-background-removal job no worker has started, from creation; once started, the worker\'s own deadline applies', default: 1800, min: 1 }),
  JOB_TIMEOUT_GRACE_SECONDS: env.int({ doc: 'extra time before the sweeper fails a job past its deadline with timeout (a live worker reports its own timeout first)', default: 120, min: 0 }),
  SWEEP_INTERVAL_SECONDS: env.int({ doc: 'how often stale jobs and expired idempotency keys are swept', default: 30, min: 1 }),
  OUTBOX_POLL_MS: env.int({ doc: 'outbox relay poll interval; commits also nudge it', default: 200, min: 10 }),
});

export type JobsConfig = ReturnType<typeof jobsEnv.parse>;
