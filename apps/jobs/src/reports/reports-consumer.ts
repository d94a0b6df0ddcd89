import { CONSUMERS, JOB_REPORT_KINDS, STREAMS, subjects } from '@vj/contracts';
import type { ConsumerSpec } from '@vj/messaging';

// Reports are small DB updates: short ack wait, quick retries, then a dead letter (the sweeper is the backstop).
export const REPORTS_CONSUMER: ConsumerSpec = {
  stream: STREAMS.reports,
  durable: CONSUMERS.jobsReports,
  filterSubject: subjects.reportAll(),
  subjects: JOB_REPORT_KINDS.map((kind) => subjects.report(kind)),
  ackWaitMs: 30_000,
  maxDeliver: 5,
  concurrency: 16,
  backoffMs: [1_000, 5_000, 15_000, 30_000],
  maxProcessingMs: 60_000,
};

// The render workers' consumer: jobs watches its MAX_DELIVERIES advisory so a job whose worker crashed
// on every attempt still fails instead of staying PROCESSING.
export const RENDER_WORKER_DEAD_LETTERS = { stream: STREAMS.work, durable: CONSUMERS.renderWorker } as const;
