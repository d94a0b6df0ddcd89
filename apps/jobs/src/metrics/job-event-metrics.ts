import { subjects, type JobError } from '@vj/contracts';
import { counter } from '@vj/observability';
import type { OutboxPublisher } from '@vj/outbox';

const created = () => counter({ name: 'jobs_created_total', help: 'jobs created, by type (their created event published)', labelNames: ['type'] });
const completed = () => counter({ name: 'jobs_completed_total', help: 'jobs completed, by type', labelNames: ['type'] });
const failed = () => counter({ name: 'jobs_failed_total', help: 'jobs failed, by type and error code', labelNames: ['type', 'code'] });
const cancelled = () => counter({ name: 'jobs_cancelled_total', help: 'jobs cancelled, by type', labelNames: ['type'] });

interface EventPayload {
  job_type?: string;
  error?: Pick<JobError, 'code'>;
}

// Counts job lifecycle events as the outbox relay publishes them: each event is written once, in the
// transaction that changed the job, so the counts follow the jobs' own history whichever instance
// relays them. (A relay that dies between a publish and marking the row may publish it again: the
// stream drops the duplicate, the counter counts it.)
export function countingJobEvents(publisher: OutboxPublisher): OutboxPublisher {
  const counters = new Map<string, (payload: EventPayload) => void>([
    [subjects.jobEvent('created'), (p) => created().inc({ type: p.job_type ?? 'unknown' })],
    [subjects.jobEvent('completed'), (p) => completed().inc({ type: p.job_type ?? 'unknown' })],
    [subjects.jobEvent('failed'), (p) => failed().inc({ type: p.job_type ?? 'unknown', code: p.error?.code ?? 'unknown' })],
    [subjects.jobEvent('cancelled'), (p) => cancelled().inc({ type: p.job_type ?? 'unknown' })],
  ]);
  return {
    async publish(subject, payload, options) {
      const ack = await publisher.publish(subject, payload, options);
      counters.get(subject)?.((payload ?? {}) as EventPayload);
      return ack;
    },
  };
}
