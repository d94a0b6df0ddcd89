// Runs dispatcher rounds one after the other on each instance: at once again after a full batch (more
// are due), after idleMs otherwise. A failed round is reported and the loop goes on; stop() waits for
// the round in progress, so a shutdown never cuts an attempt's record in half. nudge() says deliveries
// are due now (an event just taken): the loop runs a round at once rather than after idleMs.
export class DispatchLoop {
  private stopping = false;
  private loop?: Promise<void>;
  private wake?: () => void;
  private nudged = false;

  constructor(
    private readonly round: () => Promise<number>,
    private readonly settings: { batch: number; idleMs: number; onError: (error: unknown) => void },
  ) {}

  start(): void {
    this.loop = this.run();
  }

  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let sent = 0;
      this.nudged = false;
      try {
        sent = await this.round();
      } catch (error) {
        this.settings.onError(error);
      }
      if (sent < this.settings.batch && !this.stopping && !this.nudged) await this.idle();
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.settings.idleMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
