// How a sweep makes sure it is the only one among the service's instances (a PostgreSQL advisory lock);
// null: another instance is at it, this one skips its turn.
export type SweepLock = <T>(work: () => Promise<T>) => Promise<T | null>;

export const unlocked: SweepLock = (work) => work();

// Runs a task every intervalMs, never two runs at once; stop() waits for a run in progress, so a
// shutdown does not cut a sweep in the middle of its transaction. A run that fails (PostgreSQL away
// while it takes its lock) goes to onFailure and the next comes at its time: a rejection left unhandled
// would end the process.
export class Periodic {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly task: () => Promise<void>,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.task()
        .catch(this.onFailure)
        .finally(() => (this.running = undefined));
    }, this.intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
