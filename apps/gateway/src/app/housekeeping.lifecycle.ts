import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { RateLimitBuckets } from '../rate-limits/rate-limit-buckets';
import type { MultipartUploadsService, UploadsRepository } from '../uploads';

const INTERVAL_MS = 10 * 60_000;

// The gateway's own rows that only age: rate-limit buckets that are full again, and upload declarations past
// UPLOAD_RETENTION_HOURS (their objects are the jobs service's retention sweeper's; a multipart upload
// never completed is aborted first, freeing its parts). Every instance may run it: deleting or aborting
// twice is harmless.
export class HousekeepingLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Housekeeping');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly buckets: RateLimitBuckets,
    private readonly uploads: UploadsRepository,
    private readonly multipart: MultipartUploadsService,
    private readonly uploadRetentionMs: number,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), INTERVAL_MS);
    this.timer.unref();
  }

  async sweep(now = Date.now()): Promise<void> {
    try {
      await this.buckets.deleteFull(new Date(now));
      const expired = new Date(now - this.uploadRetentionMs);
      await this.multipart.abortOpenCreatedBefore(expired);
      await this.uploads.deleteCreatedBefore(expired);
    } catch (error) {
      this.logger.warn(`housekeeping failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }
}
