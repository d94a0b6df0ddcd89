import type { VideoInputV1 } from '@vj/contracts';
import { LRUCache } from 'lru-cache';

// What probing an input found: its duration; or none, because the input states none that could be
// read, or because no probe answered within its time limit (worth another try later).
export type ProbeOutcome = { seconds: number } | { seconds: null; timedOut: boolean };

type Probe = () => Promise<ProbeOutcome>;

// Enough for every input quoted within the time-to-live on a busy gateway; an entry is a few hundred bytes.
const MAX_ENTRIES = 10_000;

// Durations of inputs recently probed for a quote (decision 0018). Concurrent quotes of one input share
// one probe and later ones reuse its answer, so a burst of creates from one upload costs one probe on
// one worker instead of one each, and none of them falls back to the maximum-duration quote.
export class ProbedDurations {
  private readonly outcomes: LRUCache<string, ProbeOutcome, Probe>;

  constructor(ttlMs: number, clock: { now(): number } = performance) {
    this.outcomes = new LRUCache<string, ProbeOutcome, Probe>({
      max: MAX_ENTRIES,
      ttl: ttlMs,
      ttlResolution: 0,
      perf: clock,
      fetchMethod: (_key, _stale, { context }) => context(),
    });
  }

  // Per account: one account's quotes never tell it what another has probed.
  async durationOf(accountId: string, input: VideoInputV1, probe: Probe): Promise<ProbeOutcome> {
    const key = `${accountId} ${inputKey(input)}`;
    const outcome = (await this.outcomes.fetch(key, { context: probe })) ?? { seconds: null, timedOut: true };
    // Only durations are kept: the next quote of an input that gave none probes again. The check keeps
    // a probe started meanwhile by a later quote.
    if (outcome.seconds === null && this.outcomes.peek(key) === outcome) this.outcomes.delete(key);
    return outcome;
  }
}

function inputKey(input: VideoInputV1): string {
  // An upload PUT again holds other bytes: its new ETag is another input.
  return input.kind === 'upload' ? `upload ${input.object_key} ${input.etag ?? ''}` : `url ${input.url}`;
}
