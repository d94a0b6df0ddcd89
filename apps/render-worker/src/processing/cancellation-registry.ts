import { Injectable } from '@nestjs/common';
import { HandBack } from '@vj/messaging';

// Abort reasons. Named AbortError so media's isAbortError() treats them as aborts, not failures.

// The job became final elsewhere (its client cancelled it, the sweeper failed it, another worker finished
// it): this run stops and reports nothing.
export type EndedJobStatus = 'CANCELLED' | 'FAILED' | 'COMPLETED';
export class JobEnded extends Error {
  override readonly name = 'AbortError';
  constructor(
    readonly jobId: string,
    readonly status: EndedJobStatus,
  ) {
    super(`job ${jobId} is ${status}`);
  }
}

export class JobCancelled extends JobEnded {
  constructor(jobId: string) {
    super(jobId, 'CANCELLED');
    this.message = `job ${jobId} was cancelled`;
  }
}

// This process is shutting down: the message goes back to the stream at once and is processed again
// elsewhere; not a failed attempt.
export class WorkAbandoned extends HandBack {}

export interface JobRegistration {
  signal: AbortSignal;
  release(): void;
}

// The jobs this process is running, so a cancel event, a job failed elsewhere or a shutdown can stop them.
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

  // The job reached a final status by another path: stop it here. True when this process was running it.
  ended(jobId: string, status: EndedJobStatus): boolean {
    const controllers = this.running.get(jobId);
    const reason = status === 'CANCELLED' ? new JobCancelled(jobId) : new JobEnded(jobId, status);
    controllers?.forEach((controller) => controller.abort(reason));
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
