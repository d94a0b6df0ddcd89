// A doorbell between one waiter and a callback: ring() wakes the current wait, or the next one when
// nobody waits yet, so a ring between two waits is never lost.
export class Wakeup {
  private rung = false;
  private wake?: (woke: boolean) => void;

  ring(): void {
    this.rung = true;
    this.wake?.(true);
  }

  // True when rung, false when the time ran out or the signal fired.
  wait(ms: number, signal: AbortSignal): Promise<boolean> {
    if (this.rung || signal.aborted) {
      const woke = this.rung;
      this.rung = false;
      return Promise.resolve(woke);
    }
    return new Promise((resolve) => {
      const done = (woke: boolean) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.wake = undefined;
        this.rung = false;
        resolve(woke);
      };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      signal.addEventListener('abort', onAbort, { once: true });
      this.wake = done;
    });
  }
}
