// At most `size` duration probes at once on a worker, so a burst of quotes cannot starve the jobs it
// renders of CPU. Probes beyond it wait, first come first served, within their own time limit.
export class ProbeSlots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(maxWaitMs: number, work: () => Promise<T>): Promise<T> {
    await this.acquire(maxWaitMs);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(maxWaitMs: number): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(grant), 1);
        reject(new DOMException(`no free probe slot within ${maxWaitMs} ms`, 'TimeoutError'));
      }, maxWaitMs);
      this.waiting.push(grant);
    });
  }

  // A freed slot goes straight to the longest waiting probe.
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}
