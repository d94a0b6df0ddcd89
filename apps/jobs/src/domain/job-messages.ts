import { subjects, type JobEventKind, type JobEventPayloads, type JobStateUpdateV1, type JobWorkRequestedV1 } from '@vj/contracts';
import { randomUUID } from 'node:crypto';
import type { Job } from './job';
import { jobEstimate } from './job-estimate';
import type { OutboxDraft } from '@vj/outbox';

// The work message, written once billing funded the job (decision 0015). msgId = job_id so a
// re-published row is dropped by the stream's dedup window.
export function workMessage(job: Job): OutboxDraft {
  const payload: JobWorkRequestedV1 = {
    version: 1,
    job_id: job.job_id,
    account_id: job.account_id,
    job_type: job.job_type,
    input: job.input,
    options: job.options,
    requested_at: job.created_at.toISOString(),
  };
  return { subject: subjects.work(job.job_type), msgId: job.job_id, payload };
}

// A job has at most one event of each kind, so `<job_id>.<kind>` is a stable dedup id.
// A created event carries the create's webhook_url (not kept with the job: the event is its record).
export function jobEventMessage(kind: JobEventKind, job: Job, created: { webhook_url?: string } = {}): OutboxDraft {
  const base = { version: 1 as const, job_id: job.job_id, account_id: job.account_id, job_type: job.job_type, event_id: randomUUID(), occurred_at: job.updated_at.toISOString() };
  const payloads: { [K in JobEventKind]: () => JobEventPayloads[K] } = {
    created: () => {
      // Billing holds this quote before the work may start.
      const estimate = jobEstimate(job);
      return { ...base, options: job.options, ...(estimate && { estimate }), ...(created.webhook_url && { webhook_url: created.webhook_url }) };
    },
    started: () => ({ ...base, attempt: job.attempts }),
    completed: () => ({ ...base, result: required(job.result, 'result'), media_duration_seconds: job.media_duration_seconds ?? 0 }),
    failed: () => ({ ...base, error: required(job.error, 'error') }),
    cancelled: () => base,
  };
  return { subject: subjects.jobEvent(kind), msgId: `${job.job_id}.${kind}`, payload: payloads[kind]() };
}

// Every event but created also lands on the job's own update subject, for whoever follows the job.
export function jobUpdateMessage(event: Exclude<JobEventKind, 'created'>, job: Job): OutboxDraft {
  const payload: JobStateUpdateV1 = {
    version: 1,
    job_id: job.job_id,
    account_id: job.account_id,
    job_type: job.job_type,
    kind: 'state',
    event,
    status: job.status,
    occurred_at: job.updated_at.toISOString(),
  };
  return { subject: subjects.jobUpdate(job.job_id), msgId: `${job.job_id}.${event}.update`, payload };
}

function required<T>(value: T | null, field: string): T {
  if (value === null) throw new Error(`job event needs the job's ${field}`);
  return value;
}
