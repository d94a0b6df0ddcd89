import type { JobUpdateV1 } from '@vj/contracts';

// One stored update of a job and its place in the job's update stream (the SSE event id).
export interface StoredJobUpdate {
  seq: number;
  update: JobUpdateV1;
}

// One job's updates (VJ_JOB_UPDATES): read back in order, and heard as they are published. Behind a
// port so the SSE stream and Prefer: wait test against a fake; messaging/nats-job-updates.adapter.ts
// binds it to NATS.
export interface JobUpdatesPort {
  // The job's stored updates after afterSeq, oldest first, at most limit of them.
  readAfter(jobId: string, afterSeq: number, limit: number): Promise<StoredJobUpdate[]>;
  // The job's newest stored update, or null when none is kept.
  last(jobId: string): Promise<StoredJobUpdate | null>;
  // Calls back on each update as it is published: a wake-up, with no promise of order or delivery
  // (readAfter is the record). Returns the unsubscribe.
  watch(jobId: string, onUpdate: (update: JobUpdateV1) => void): () => void;
}

export const JOB_UPDATES_PORT = Symbol('JobUpdatesPort');
