import { MediaError } from './media-error';

// One job's time limit, shared by every process it starts: each gets what is left, and none starts
// once it is spent.
export class Deadline {
  private readonly at: number;

  constructor(
    private readonly limitMs: number,
    // What the job does, for the timeout message ("Cleaning the audio").
    private readonly work: string,
  ) {
    this.at = Date.now() + limitMs;
  }

  remainingMs(): number {
    const ms = this.at - Date.now();
    if (ms <= 0) throw new MediaError('timeout', `${this.work} took longer than ${this.limitMs} ms`);
    return ms;
  }
}
