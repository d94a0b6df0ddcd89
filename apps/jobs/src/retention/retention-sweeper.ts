import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { isUuid } from '@vj/database';
import { Periodic, unlocked, type SweepLock } from '../sweeper/periodic';
import type { JobFilesPurger, RetainedObjects } from './job-files-purger';
import type { RetentionStore } from './retention-store';

export interface RetentionSettings {
  intervalMs: number;
  // Result files are deleted this long after their job completed.
  resultRetentionMs: number;
  // An upload no PROCESSING job reads is deleted this long after it was PUT.
  uploadRetentionMs: number;
}

const BATCH = 100;
const UPLOADS_PREFIX = 'uploads/';

// Nothing stays in the bucket for ever (decision 0024): each pass deletes the files of deleted jobs and
// of jobs completed more than RESULT_RETENTION_DAYS ago, the uploads of ended jobs, and uploads older
// than UPLOAD_RETENTION_HOURS that no PROCESSING job reads. Each instance may run it: every step is
// idempotent.
export class RetentionSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RetentionSweeper.name);
  private readonly periodic: Periodic;

  constructor(
    private readonly store: RetentionStore,
    private readonly purger: JobFilesPurger,
    private readonly objects: RetainedObjects,
    private readonly settings: RetentionSettings,
    private readonly now: () => Date = () => new Date(),
    private readonly lock: SweepLock = unlocked,
  ) {
    this.periodic = new Periodic(
      settings.intervalMs,
      async () => void (await this.lock(() => this.sweep())),
      (error) => this.logger.error(`retention sweep failed, trying again at the next one: ${String(error)}`),
    );
  }

  onApplicationBootstrap(): void {
    this.periodic.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.periodic.stop();
  }

  async sweep(): Promise<void> {
    await this.step('result files', () => this.purgeFiles());
    await this.step('inputs of ended jobs', () => this.purgeInputs());
    await this.step('old uploads', () => this.purgeOldUploads());
  }

  private async step(what: string, run: () => Promise<number>): Promise<void> {
    try {
      const count = await run();
      if (count) this.logger.log(`deleted ${what}: ${count}`);
    } catch (error) {
      this.logger.error(`retention of ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async purgeFiles(): Promise<number> {
    const expired = await this.store.findExpiredResults(new Date(this.now().getTime() - this.settings.resultRetentionMs), BATCH);
    const deleted = await this.store.findDeletedWithFiles(BATCH);
    for (const job of [...expired, ...deleted]) await this.purger.purgeResults(job);
    return expired.length + deleted.length;
  }

  private async purgeInputs(): Promise<number> {
    const jobs = await this.store.findInputsToPurge(BATCH);
    for (const job of jobs) await this.purger.purgeInput(job);
    return jobs.length;
  }

  private async purgeOldUploads(): Promise<number> {
    const before = this.now().getTime() - this.settings.uploadRetentionMs;
    let deleted = 0;
    for await (const object of this.objects.list(UPLOADS_PREFIX)) {
      if (object.lastModified.getTime() >= before) continue;
      // uploads/<account_id>/<upload_id>
      const accountId = object.key.split('/')[1] ?? '';
      if (isUuid(accountId) && (await this.store.uploadInUse(accountId, object.key))) continue;
      await this.objects.remove(object.key);
      deleted++;
    }
    return deleted;
  }
}
