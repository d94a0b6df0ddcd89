import { CancellationRegistry, JobCancelled, WorkAbandoned } from './cancellation-registry';

describe('CancellationRegistry', () => {
  it('aborts the running job named by a cancel event with JobCancelled', () => {
    const registry = new CancellationRegistry();
    const job = registry.register('job-1');
    const other = registry.register('job-2');
    expect(registry.ended('job-1', 'CANCELLED')).toBe(true);
    expect(job.signal.aborted).toBe(true);
    expect(job.signal.reason).toBeInstanceOf(JobCancelled);
    expect(other.signal.aborted).toBe(false);
  });

  it('ignores a cancel event for a job it is not running', () => {
    expect(new CancellationRegistry().ended('elsewhere', 'CANCELLED')).toBe(false);
  });

  it('forgets a job once it is released', () => {
    const registry = new CancellationRegistry();
    const job = registry.register('job-1');
    job.release();
    expect(registry.runningJobs).toBe(0);
    expect(registry.ended('job-1', 'CANCELLED')).toBe(false);
    expect(job.signal.aborted).toBe(false);
  });

  it('aborts every running job with WorkAbandoned on shutdown', () => {
    const registry = new CancellationRegistry();
    const jobs = [registry.register('a'), registry.register('b')];
    registry.abandonAll('shutting down');
    expect(jobs.map((job) => job.signal.reason)).toEqual([expect.any(WorkAbandoned), expect.any(WorkAbandoned)]);
  });

  it('cancels both deliveries of a job that is running twice in this process', () => {
    const registry = new CancellationRegistry();
    const first = registry.register('job-1');
    const second = registry.register('job-1');
    first.release();
    registry.ended('job-1', 'CANCELLED');
    expect(second.signal.aborted).toBe(true);
  });
});
