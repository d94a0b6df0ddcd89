import type { JobEventKind, WebhookEventType, WebhookPayload, WebhookProgress } from '@vj/contracts';

// Which endpoints a job event goes to, and the body they all get. Pure: the consumer writes one
// delivery row per endpoint, in the transaction that takes the event.

export interface EndpointView {
  endpoint_id: string;
  account_id: string;
  events: readonly WebhookEventType[];
  // An endpoint of one job only (a create's webhook_url).
  job_id: string | null;
  disabled_at: Date | null;
  deleted_at: Date | null;
}

// created is billing's business, not a client's: no webhook type.
const EVENT_TYPES: Partial<Record<JobEventKind, WebhookEventType>> = {
  started: 'job.started',
  completed: 'job.completed',
  failed: 'job.failed',
  cancelled: 'job.cancelled',
};

export function webhookTypeOf(kind: JobEventKind): WebhookEventType | null {
  return EVENT_TYPES[kind] ?? null;
}

export function endpointsFor(type: WebhookEventType, event: { account_id: string; job_id: string }, endpoints: readonly EndpointView[]): EndpointView[] {
  return endpoints.filter(
    (endpoint) =>
      endpoint.account_id === event.account_id &&
      !endpoint.disabled_at &&
      !endpoint.deleted_at &&
      (endpoint.job_id === null || endpoint.job_id === event.job_id) &&
      endpoint.events.includes(type),
  );
}

export function webhookBody<Job>(type: WebhookEventType, occurredAt: string, job: Job, progress?: WebhookProgress): string {
  const payload: WebhookPayload<Job> = { type, timestamp: occurredAt, data: progress ? { job, progress } : { job } };
  return JSON.stringify(payload);
}

// A PROCESSING job as GET answers it (docs/spec/video-jobs-resources.md: nothing but its id and status).
export function runningJob(jobId: string): { job_id: string; status: 'PROCESSING' } {
  return { job_id: jobId, status: 'PROCESSING' };
}
