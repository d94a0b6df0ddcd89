import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { JobEventsConsumer } from '@vj/job-events';
import type { JobProgressIntake } from './job-progress-intake';

// Job events and progress in: read from start (a consumer that cannot be made fails the boot); at
// shutdown the events in hand finish and are acknowledged.
export class IntakeLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(
    private readonly events: JobEventsConsumer,
    private readonly progress: JobProgressIntake,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.events.start();
    await this.progress.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.events.stop(), this.progress.stop()]);
  }
}
