import type { JobRecordV1, JobStatus } from '@vj/contracts';
import { SettledJobCache } from './settled-job-cache';

function record(status: JobStatus, credits_charged: number | null = null): JobRecordV1 {
  return {
    job_id: `job-${status}-${credits_charged}`,
    account_id: 'acc-1',
    job_type: 'clean-audio-video',
    status,
    input: { kind: 'url', url: 'https://example.com/a.mp4' },
    options: { strength: 1, normalize_loudness: true, target_lufs: -16 },
    created_at: '2026-11-24T00:00:00.000Z',
    updated_at: '2026-11-24T00:00:00.000Z',
    credits_estimated: 2,
    credits_charged,
    result: null,
    error: null,
  };
}

describe('SettledJobCache', () => {
  it.each([
    ['PROCESSING', null, false],
    ['COMPLETED', null, false],
    ['COMPLETED', 2, true],
    ['FAILED', null, true],
    ['CANCELLED', null, true],
  ] as const)('keeps a %s job charged %s: %s', (status, charged, kept) => {
    const cache = new SettledJobCache(60_000);
    const job = record(status, charged);
    cache.remember(job, { job_id: job.job_id, status });
    expect(cache.get('acc-1', 'clean-audio-video', job.job_id)).toEqual(kept ? { job_id: job.job_id, status } : undefined);
  });

  it("never answers another account's read or a read of the other job type", () => {
    const cache = new SettledJobCache(60_000);
    const job = record('FAILED');
    cache.remember(job, { job_id: job.job_id, status: 'FAILED' });
    expect(cache.get('acc-2', 'clean-audio-video', job.job_id)).toBeUndefined();
    expect(cache.get('acc-1', 'video-background-removal', job.job_id)).toBeUndefined();
  });

  it('forgets a deleted job, and keeps nothing with a time-to-live of 0', () => {
    const cache = new SettledJobCache(60_000);
    const job = record('CANCELLED');
    cache.remember(job, { job_id: job.job_id, status: 'CANCELLED' });
    cache.forget(job.job_id);
    expect(cache.get('acc-1', 'clean-audio-video', job.job_id)).toBeUndefined();
    const off = new SettledJobCache(0);
    off.remember(job, { job_id: job.job_id, status: 'CANCELLED' });
    expect(off.get('acc-1', 'clean-audio-video', job.job_id)).toBeUndefined();
  });
});
