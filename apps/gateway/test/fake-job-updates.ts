import type { JobUpdateV1 } from '@vj/contracts';
import type { JobUpdatesPort, StoredJobUpdate } from '../src/jobs/job-updates-port';

// VJ_JOB_UPDATES in memory: one sequence over all jobs, as a stream numbers its messages.
export class FakeJobUpdates implements JobUpdatesPort {
  private readonly stored: (StoredJobUpdate & { jobId: string })[] = [];
  private readonly watchers = new Map<string, Set<(update: JobUpdateV1) => void>>();
  private seq = 0;

  // Publishes an update of the job: stored, then heard by its watchers.
  publish(update: JobUpdateV1): number {
    const seq = ++this.seq;
    this.stored.push({ seq, update, jobId: update.job_id });
    for (const watcher of this.watchers.get(update.job_id) ?? []) watcher(update);
    return seq;
  }

  // Jobs somebody follows right now.
  watchedJobIds(): string[] {
    return [...this.watchers].filter(([, set]) => set.size > 0).map(([jobId]) => jobId);
  }

  watcherCount(jobId: string): number {
    return this.watchers.get(jobId)?.size ?? 0;
  }

  async readAfter(jobId: string, afterSeq: number, limit: number): Promise<StoredJobUpdate[]> {
    return this.stored.filter((s) => s.jobId === jobId && s.seq > afterSeq).slice(0, limit).map(({ seq, update }) => ({ seq, update }));
  }

  async last(jobId: string): Promise<StoredJobUpdate | null> {
    const mine = this.stored.filter((s) => s.jobId === jobId);
    const last = mine[mine.length - 1];
    return last ? { seq: last.seq, update: last.update } : null;
  }

  watch(jobId: string, onUpdate: (update: JobUpdateV1) => void): () => void {
    const set = this.watchers.get(jobId) ?? new Set();
    set.add(onUpdate);
    this.watchers.set(jobId, set);
    return () => set.delete(onUpdate);
  }
}
