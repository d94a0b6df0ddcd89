import { JOB_TYPES, type JobType } from '../job/job-type';

// The one name resolver: every NATS subject, stream and durable consumer name is built here.
// Nobody concatenates subject strings anywhere else.

export const STREAMS = {
  // Work-queue retention: each job's work message is removed once a render worker acks it.
  work: 'VJ_WORK',
  // Worker -> jobs service: progress and outcome of a job's processing.
  reports: 'VJ_JOB_REPORTS',
  // Job lifecycle events for any internal consumer (billing, analytics, webhooks).
  jobEvents: 'VJ_JOB_EVENTS',
  // Billing's own events (holds, charges, releases) for any internal consumer; the jobs service is one.
  billingEvents: 'VJ_BILLING_EVENTS',
  // Every consumer's dead letters, kept for an operator to list and replay (CLI `dead-letters`).
  deadLetters: 'VJ_DEAD_LETTERS',
  // One subject per job: its state changes (jobs service, outbox) and progress (render workers), read
  // back in order by whoever follows one job (the gateway's SSE stream and Prefer: wait).
  jobUpdates: 'VJ_JOB_UPDATES',
} as const;
export type StreamName = (typeof STREAMS)[keyof typeof STREAMS];

export const CONSUMERS = {
  renderWorker: 'render-worker',
  jobsReports: 'jobs-reports',
  billingJobEvents: 'billing-job-events',
  jobsBillingEvents: 'jobs-billing-events',
  // examples/job-counts: the example internal consumer of job events (libs/job-events).
  jobCounts: 'job-counts',
  // apps/webhook-delivery: turns job events into webhook deliveries, and progress into job.progress ones.
  webhooksJobEvents: 'webhooks-job-events',
  webhooksJobUpdates: 'webhooks-job-updates',
} as const;
export type ConsumerName = (typeof CONSUMERS)[keyof typeof CONSUMERS];

// started: the first attempt began (a retry is not a new start).
export const JOB_EVENT_KINDS = ['created', 'started', 'completed', 'failed', 'cancelled'] as const;
export type JobEventKind = (typeof JOB_EVENT_KINDS)[number];

// retrying: an attempt failed for a reason of ours and the work goes back to the queue.
// planned, plate_stored, segment_done: a long background removal's pieces (decision 0101).
export const JOB_REPORT_KINDS = ['started', 'retrying', 'succeeded', 'failed', 'planned', 'plate_stored', 'segment_done'] as const;
export type JobReportKind = (typeof JOB_REPORT_KINDS)[number];

// The pieces a long background removal is run as on many workers, after the job's own work message
// planned it (decision 0101): one plate pass, the segments, and the join.
export const WORK_PIECES = ['pass', 'segment', 'join'] as const;
export type WorkPiece = (typeof WORK_PIECES)[number];
export const PIECED_JOB_TYPE = 'video-background-removal' satisfies JobType;

// Where a job's work is, in the order a worker goes through them.
export const PROGRESS_STAGES = ['fetching', 'probing', 'processing', 'uploading'] as const;
export type ProgressStage = (typeof PROGRESS_STAGES)[number];
// Each stage's share of a job's fraction done (JobProgressUpdateV1.progress): the media work is most of
// any job. Whoever reports a job's progress (its worker, or the jobs service for a long job's pieces)
// places it in these spans.
export const PROGRESS_STAGE_SPANS: Record<ProgressStage, readonly [number, number]> = {
  fetching: [0, 0.1],
  probing: [0.1, 0.15],
  processing: [0.15, 0.95],
  uploading: [0.95, 1],
};

export const BILLING_EVENT_KINDS = ['hold_placed', 'hold_rejected', 'charge_captured', 'hold_released'] as const;
export type BillingEventKind = (typeof BILLING_EVENT_KINDS)[number];

export const RPC_METHODS = ['create', 'replay', 'get', 'list', 'cancel', 'cancel_account', 'delete'] as const;
export type JobsRpcMethod = (typeof RPC_METHODS)[number];

// price_list: the current prices, which the gateway caches and quotes from (decision 0037).
// extend_hold: a render worker, before processing, holds the price of the input it actually fetched.
export const BILLING_RPC_METHODS = ['price_list', 'balance', 'usage', 'ledger', 'grant', 'extend_hold'] as const;
export type BillingRpcMethod = (typeof BILLING_RPC_METHODS)[number];

// Served by the webhook delivery service: an account's endpoints, their deliveries and its default secret.
export const WEBHOOKS_RPC_METHODS = [
  'create_endpoint',
  'list_endpoints',
  'delete_endpoint',
  'rotate_endpoint_secret',
  'list_deliveries',
  'retry_delivery',
  'get_default_secret',
  'rotate_default_secret',
] as const;
export type WebhooksRpcMethod = (typeof WEBHOOKS_RPC_METHODS)[number];

// Served by the render workers: they own fetching inputs and ffprobe.
export const MEDIA_RPC_METHODS = ['probe'] as const;
export type MediaRpcMethod = (typeof MEDIA_RPC_METHODS)[number];

// Services that answer health pings; the gateway's /healthz asks each one.
export const SERVICES = ['jobs', 'render-worker', 'billing', 'webhook-delivery'] as const;
export type ServiceName = (typeof SERVICES)[number];

export const subjects = {
  work: (type: JobType) => `vj.work.v1.${type}`,
  workPiece: (piece: WorkPiece) => `vj.work.v1.${PIECED_JOB_TYPE}.${piece}`,
  // Every subject a work message is published on: each job type's, then the pieces'.
  workEvery: (): string[] => [...JOB_TYPES.map((type) => subjects.work(type)), ...WORK_PIECES.map((piece) => subjects.workPiece(piece))],
  workAll: () => 'vj.work.v1.>',
  report: (kind: JobReportKind) => `vj.reports.job.v1.${kind}`,
  reportAll: () => 'vj.reports.job.v1.>',
  jobEvent: (kind: JobEventKind) => `vj.events.job.v1.${kind}`,
  jobEventAll: () => 'vj.events.job.v1.>',
  // One subject per job, so one job's updates are read in order without a consumer.
  jobUpdate: (jobId: string) => `vj.updates.job.v1.${jobId}`,
  jobUpdateAll: () => 'vj.updates.job.v1.*',
  billingEvent: (kind: BillingEventKind) => `vj.events.billing.v1.${kind}`,
  billingEventAll: () => 'vj.events.billing.v1.>',
  // Core NATS request/reply, served by the jobs service.
  jobsRpc: (method: JobsRpcMethod) => `vj.rpc.jobs.v1.${method}`,
  billingRpc: (method: BillingRpcMethod) => `vj.rpc.billing.v1.${method}`,
  mediaRpc: (method: MediaRpcMethod) => `vj.rpc.media.v1.${method}`,
  webhooksRpc: (method: WebhooksRpcMethod) => `vj.rpc.webhooks.v1.${method}`,
  // Core NATS request/reply: any instance of the service answers HealthReplyV1.
  health: (service: ServiceName) => `vj.health.v1.${service}`,
  // A consumer's dead letter, kept (DeadLetterRecordV1).
  deadLetter: (consumer: ConsumerName) => `vj.dead.v1.${consumer}`,
  deadLetterAll: () => 'vj.dead.v1.>',
  // Published by JetStream when a message reaches its consumer's max_deliver: our dead-letter signal.
  maxDeliveriesAdvisory: (stream: StreamName, consumer: ConsumerName) =>
    `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream}.${consumer}`,
} as const;

// Each stream with the subjects it captures, so every service declares them identically.
export const STREAM_SUBJECTS: Record<StreamName, string[]> = {
  [STREAMS.work]: [subjects.workAll()],
  [STREAMS.reports]: [subjects.reportAll()],
  [STREAMS.jobEvents]: [subjects.jobEventAll()],
  [STREAMS.billingEvents]: [subjects.billingEventAll()],
  [STREAMS.deadLetters]: [subjects.deadLetterAll()],
  [STREAMS.jobUpdates]: [subjects.jobUpdateAll()],
};

// Core NATS queue groups: one member of each group handles a message, so several instances can run.
export const queueGroups = {
  jobsRpc: () => 'vj-jobs-rpc',
  billingRpc: () => 'vj-billing-rpc',
  mediaRpc: () => 'vj-media-rpc',
  webhooksRpc: () => 'vj-webhooks-rpc',
  health: (service: ServiceName) => `vj-health-${service}`,
  deadLetters: (consumer: ConsumerName) => `vj-dead-letters-${consumer}`,
} as const;

// Everything a generic RPC client or server needs to know about one service's request/reply catalogue.
export interface RpcEndpoint<M extends string> {
  service: string;
  methods: readonly M[];
  subject: (method: M) => string;
  queue: string;
}

export const RPC_ENDPOINTS = {
  jobs: { service: 'jobs', methods: RPC_METHODS, subject: subjects.jobsRpc, queue: queueGroups.jobsRpc() } satisfies RpcEndpoint<JobsRpcMethod>,
  billing: { service: 'billing', methods: BILLING_RPC_METHODS, subject: subjects.billingRpc, queue: queueGroups.billingRpc() } satisfies RpcEndpoint<BillingRpcMethod>,
  media: { service: 'media', methods: MEDIA_RPC_METHODS, subject: subjects.mediaRpc, queue: queueGroups.mediaRpc() } satisfies RpcEndpoint<MediaRpcMethod>,
  webhooks: {
    service: 'webhooks',
    methods: WEBHOOKS_RPC_METHODS,
    subject: subjects.webhooksRpc,
    queue: queueGroups.webhooksRpc(),
  } satisfies RpcEndpoint<WebhooksRpcMethod>,
} as const;

// A durable consumer of a stream, as NATS names it.
export interface ConsumerRef {
  stream: StreamName;
  durable: ConsumerName;
}
