import type { JobProgressUpdateV1 } from '@vj/contracts';
import { ProgressReporter } from './progress-reporter';

const JOB = { job_id: 'job-1', account_id: 'acct-1', job_type: 'clean-audio-video' } as const;

function reporter(publish: (update: JobProgressUpdateV1) => Promise<void> = async () => undefined) {
  let now = 0;
  const published: JobProgressUpdateV1[] = [];
  const progress = new ProgressReporter(JOB, 2, { publish: async (u) => (published.push(u), publish(u)) }, { intervalMs: 1000, now: () => now });
  return { progress, published, advance: (ms: number) => (now += ms), seen: () => published.map((u) => [u.stage, u.progress]) };
}

describe('ProgressReporter', () => {
  it('maps a stage fraction onto the whole job, at most once a second within a stage', async () => {
    const { progress, advance, seen } = reporter();
    progress.stage('processing');
    progress.within(0.1);
    advance(999);
    progress.within(0.2);
    advance(1);
    progress.within(0.5);
    advance(1000);
    progress.within(0.505);
    advance(1000);
    progress.within(2);
    await progress.done();
    expect(seen()).toEqual([
      ['processing', 0.15],
      ['processing', 0.55],
      ['processing', 0.95],
      ['uploading', 1],
    ]);
  });

  it('reports a stage change at once, whatever the interval', async () => {
    const { progress, seen } = reporter();
    progress.stage('fetching');
    progress.stage('probing');
    progress.stage('processing');
    await progress.done();
    expect(seen()).toEqual([
      ['fetching', 0],
      ['probing', 0.1],
      ['processing', 0.15],
      ['uploading', 1],
    ]);
  });

  it('publishes in order and never fails the job when the sink cannot publish', async () => {
    const order: number[] = [];
    const { progress } = reporter(async (u) => {
      if (u.stage === 'probing') throw new Error('nats down');
      await new Promise((resolve) => setTimeout(resolve, u.stage === 'fetching' ? 20 : 0));
      order.push(u.progress);
    });
    progress.stage('fetching');
    progress.stage('probing');
    progress.stage('processing');
    await expect(progress.done()).resolves.toBeUndefined();
    expect(order).toEqual([0, 0.15, 1]);
  });
});
