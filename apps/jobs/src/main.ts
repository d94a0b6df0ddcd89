import 'reflect-metadata';
import { tracing } from './tracing';
import { DEFAULT_METRICS_PORTS } from '@vj/config';
import { runService } from '@vj/observability';
import { createJobsApp } from './app/create-jobs-app';
import { jobsEnv } from './jobs.env';

runService({
  name: 'jobs',
  config: (env) => jobsEnv.parse(env),
  tracing,
  defaultMetricsPort: DEFAULT_METRICS_PORTS.jobs,
  // Its stop: the consumers stop pulling and let handlers finish, then NATS and the database close.
  start: createJobsApp,
});
