import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { JobsService } from '../jobs/jobs.service';

// Periodically fails jobs stuck in PROCESSING past their deadline (worker crash, lost report) with `timeout`.
export class StaleJobSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(StaleJobSweeper.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly jobs: JobsService,
    private readonly options: { intervalMs: number; graceMs: number },
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep().finally(() => (this.running = undefined));
    }, this.options.intervalMs);
  }

  async sweep(): Promise<void> {
    try {
      const failed = await this.jobs.failJobsPastDeadline(this.options.graceMs);
      if (failed) this.logger.warn(`failed ${failed} jobs past their deadline with timeout`);
    } catch (error) {
      this.logger.error(`sweep failed: ${String(error)}`);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
