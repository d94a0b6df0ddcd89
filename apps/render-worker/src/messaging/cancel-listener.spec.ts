import { Logger } from '@nestjs/common';
import { subjects } from '@vj/contracts';
import { encodeJson } from '@vj/messaging';
import type { Msg, NatsConnection, NatsError, Subscription, SubscriptionOptions } from 'nats';
import { CancellationRegistry, JobCancelled, JobEnded } from '../processing/cancellation-registry';
import { CancelListener } from './cancel-listener';

// Records the subscriptions, so a test can deliver a message on a subject.
function fakeNats() {
  const callbacks = new Map<string, (error: NatsError | null, msg: Msg) => void>();
  const unsubscribed: string[] = [];
  const nc = {
    subscribe: (subject: string, options: SubscriptionOptions) => {
      callbacks.set(subject, options.callback!);
      return { unsubscribe: () => unsubscribed.push(subject) } as unknown as Subscription;
    },
  } as unknown as NatsConnection;
  const deliver = (subject: string, payload: unknown) => {
    const callback = callbacks.get(subject);
    if (!callback) throw new Error(`no subscription on ${subject}`);
    callback(null, { subject, data: encodeJson(payload) } as Msg);
  };
  return { nc, deliver, unsubscribed };
}

describe('CancelListener', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('stops a running job on its cancelled event with JobCancelled', () => {
    const { nc, deliver } = fakeNats();
    const registry = new CancellationRegistry();
    new CancelListener(nc, registry).onApplicationBootstrap();
    const job = registry.register('job-1');
    deliver(subjects.jobEvent('cancelled'), { job_id: 'job-1' });
    expect(job.signal.reason).toBeInstanceOf(JobCancelled);
  });

  it('stops a running job that became FAILED elsewhere (the sweeper timed it out)', () => {
    const { nc, deliver } = fakeNats();
    const registry = new CancellationRegistry();
    new CancelListener(nc, registry).onApplicationBootstrap();
    const job = registry.register('job-1');
    const other = registry.register('job-2');
    deliver(subjects.jobEvent('failed'), { job_id: 'job-1', error: { code: 'timeout', message: 'x' } });
    expect(job.signal.reason).toEqual(expect.any(JobEnded));
    expect(job.signal.reason).toMatchObject({ jobId: 'job-1', status: 'FAILED' });
    expect(job.signal.reason).not.toBeInstanceOf(JobCancelled);
    expect(other.signal.aborted).toBe(false);
  });

  it('stops a running job that another worker completed, ignores unreadable events, and unsubscribes at shutdown', () => {
    const { nc, deliver, unsubscribed } = fakeNats();
    const registry = new CancellationRegistry();
    const listener = new CancelListener(nc, registry);
    listener.onApplicationBootstrap();
    const job = registry.register('job-1');
    expect(() => deliver(subjects.jobEvent('failed'), 'not json {')).not.toThrow();
    deliver(subjects.jobEvent('completed'), { job_id: 'job-1' });
    expect(job.signal.reason).toMatchObject({ status: 'COMPLETED' });
    listener.onApplicationShutdown();
    expect(unsubscribed.sort()).toEqual([subjects.jobEvent('cancelled'), subjects.jobEvent('completed'), subjects.jobEvent('failed')].sort());
  });
});
