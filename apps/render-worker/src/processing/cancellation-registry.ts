import { Injectable } from '@nestjs/common';

// Abort reasons. Named AbortError so media's isAbortError() treats them as aborts, not failures.
export class JobCancelled extends Error {
  override readonly name = 'AbortError';
  constructor(readonly jobId: string) {
    super(`job ${jobId} was cancelled`);
  }
}

export class WorkAbandoned extends Error {
  override readonly name = 'AbortError';
}

export interface JobRegistration {
  signal: AbortSignal;
  release(): void;
}

// The jobs this process is running, so a cancel event or a shutdown can stop them.
@Injectable()
export class CancellationRegistry {
  private readonly running = new Map<string, Set<AbortController>>();

  register(jobId: string): JobRegistration {
    const controller = new AbortController();
    const controllers = this.running.get(jobId) ?? new Set();
    controllers.add(controller);
    this.running.set(jobId, controllers);
    return {
      signal: controller.signal,
      release: () => {
        controllers.delete(controller);
        if (controllers.size === 0 && this.running.get(jobId) === controllers) this.running.delete(jobId);
      },
    };
  }

  // True when this process was running the job.
  cancel(jobId: string): boolean {
    const controllers = this.running.get(jobId);
    controllers?.forEach((controller) => controller.abort(new JobCancelled(jobId)));
    return Boolean(controllers?.size);
  }

  // Shutdown: stop everything; the messages are not acked, so JetStream redelivers them.
  abandonAll(reason: string): void {
    for (const controllers of this.running.values()) controllers.forEach((controller) => controller.abort(new WorkAbandoned(reason)));
  }

  get runningJobs(): number {
    return this.running.size;
  }
}
