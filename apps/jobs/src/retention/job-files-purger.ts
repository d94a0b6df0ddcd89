import { Logger } from '@nestjs/common';
import { PIECED_JOB_TYPE, piecePrefix, resultObjectKeys } from '@vj/contracts';
import type { Job } from '../domain/job';
import type { RetentionStore } from './retention-store';

// The bucket, as retention needs it: delete (a missing object is not an error) and list a prefix.
export interface RetainedObjects {
  remove(key: string): Promise<void>;
  list(prefix: string): AsyncIterable<{ key: string; lastModified: Date }>;
}

// Deletes what a job left in the bucket: its result files, and its uploaded input once no job still
// PROCESSING reads it. Marks each done only after the objects are gone, so a failure is retried by
// the next sweep.
export class JobFilesPurger {
  private readonly logger = new Logger(JobFilesPurger.name);

  constructor(
    private readonly store: RetentionStore,
    private readonly objects: RetainedObjects,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // The result's own files, and whatever any other attempt of the job left under its folder.
  async purgeResults(job: Job): Promise<void> {
    for (const key of resultObjectKeys(job.result)) await this.objects.remove(key);
    for await (const object of this.objects.list(`results/${job.account_id}/${job.job_id}/`)) await this.objects.remove(object.key);
    await this.store.markFilesPurged(job.job_id, this.now());
  }

  async purgeInput(job: Job): Promise<void> {
    // A long job's pieces are inputs too: its own copy of the input, the plates and the segments'
    // files, which a job that ended before its join leaves (decision 0101).
    if (job.job_type === PIECED_JOB_TYPE) for await (const object of this.objects.list(piecePrefix(job.account_id, job.job_id))) await this.objects.remove(object.key);
    // A URL input left nothing else of ours; marked all the same, or the sweeper would find it for ever.
    if (job.input.kind !== 'upload') return this.store.markInputDone(job.job_id, this.now());
    if (await this.store.uploadInUse(job.account_id, job.input.object_key)) {
      this.logger.debug(`job ${job.job_id}: its upload is read by a job still PROCESSING; that one deletes it`);
    } else {
      await this.objects.remove(job.input.object_key);
    }
    await this.store.markInputPurged(job.account_id, job.input.object_key, this.now());
  }

  // Both, for a deleted job; the input only when the job has none of its own files left to keep.
  async purgeAll(job: Job): Promise<void> {
    await this.purgeResults(job);
    await this.purgeInput(job);
  }
}
