import type { JobType } from '../job/job-type';

// The one name resolver: every NATS subject, stream and durable consumer name is built here.
// Nobody concatenates subject strings anywhere else.

export const STREAMS = {
  // Work-queue retention: each job's work message is removed once a render worker acks it.
  work: 'VJ_WORK',
  // Worker -> jobs service: progress and outcome of a job's processing.
  reports: 'VJ_JOB_REPORTS',
  // Job lifecycle events for any internal consumer (billing, analytics, webhooks).
  jobEvents: 'VJ_JOB_EVENTS',
} as const;
export type StreamName = (typeof STREAMS)[keyof typeof STREAMS];

export const CONSUMERS = {
  renderWorker: 'render-worker',
  jobsReports: 'jobs-reports',
  billingJobEvents: 'billing-job-events',
} as const;
export type ConsumerName = (typeof CONSUMERS)[keyof typeof CONSUMERS];

export const JOB_EVENT_KINDS = ['created', 'completed', 'failed', 'cancelled'] as const;
export type JobEventKind = (typeof JOB_EVENT_KINDS)[number];

export const JOB_REPORT_KINDS = ['started', 'succeeded', 'failed'] as const;
export type JobReportKind = (typeof JOB_REPORT_KINDS)[number];

export const RPC_METHODS = ['create', 'get', 'list', 'cancel'] as const;
export type JobsRpcMethod = (typeof RPC_METHODS)[number];

// Services that answer health pings; the gateway's /healthz asks each one.
export const SERVICES = ['jobs', 'render-worker', 'billing'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const subjects = {
  work: (type: JobType) => `vj.work.v1.${type}`,
  workAll: () => 'vj.work.v1.>',
  report: (kind: JobReportKind) => `vj.reports.job.v1.${kind}`,
  reportAll: () => 'vj.reports.job.v1.>',
  jobEvent: (kind: JobEventKind) => `vj.events.job.v1.${kind}`,
  jobEventAll: () => 'vj.events.job.v1.>',
  // Core NATS request/reply, served by the jobs service.
  jobsRpc: (method: JobsRpcMethod) => `vj.rpc.jobs.v1.${method}`,
  // Core NATS request/reply: any instance of the service answers HealthReplyV1.
  health: (service: ServiceName) => `vj.health.v1.${service}`,
  // Published by JetStream when a message reaches its consumer's max_deliver: our dead-letter signal.
  maxDeliveriesAdvisory: (stream: StreamName, consumer: ConsumerName) =>
    `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.${consumer}`,
} as const;

// Each stream with the subjects it captures, so every service declares them identically.
export const STREAM_SUBJECTS: Record<StreamName, string[]> = {
  [STREAMS.work]: [subjects.workAll()],
  [STREAMS.reports]: [subjects.reportAll()],
  [STREAMS.jobEvents]: [subjects.jobEventAll()],
};

// Core NATS queue groups: one member of each group handles a message, so several instances can run.
export const queueGroups = {
  jobsRpc: () => 'vj-jobs-rpc',
  health: (service: ServiceName) => `vj-health-${service}`,
  deadLetters: (consumer: ConsumerName) => `vj-dead-letters-${consumer}`,
} as const;
