import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { JobsService } from '../jobs/jobs.service';
import type { PiecesService } from '../pieces/pieces.service';
import { Periodic, unlocked, type SweepLock } from './periodic';

// Periodically fails jobs stuck in PROCESSING past their deadline (worker crash, lost report) with `timeout`,
// and sends the long jobs' pieces that a change which failed after its commit left unsent (decision 0101).
export class StaleJobSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(StaleJobSweeper.name);
  private readonly periodic: Periodic;

  constructor(
    private readonly jobs: JobsService,
    private readonly pieces: Pick<PiecesService, 'sendWaiting'>,
    private readonly options: { intervalMs: number; graceMs: number },
    private readonly lock: SweepLock = unlocked,
  ) {
    this.periodic = new Periodic(options.intervalMs, () => this.sweep(), (error) => this.logger.error(`sweep failed: ${String(error)}`));
  }

  onApplicationBootstrap(): void {
    this.periodic.start();
  }

  async sweep(): Promise<void> {
    const failed = (await this.lock(() => this.jobs.failJobsPastDeadline(this.options.graceMs))) ?? 0;
    if (failed) this.logger.warn(`failed ${failed} jobs past their deadline with timeout`);
    const sent = (await this.lock(() => this.pieces.sendWaiting())) ?? 0;
    if (sent) this.logger.warn(`sent ${sent} pieces of long jobs that were left waiting`);
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.periodic.stop();
  }
}
