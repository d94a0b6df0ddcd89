import type { JobInputV1 } from '@vj/contracts';
import { LRUCache } from 'lru-cache';

type ProbeDuration = () => Promise<number | null>;

// Enough for every input quoted within the time-to-live on a busy gateway; an entry is a few hundred bytes.
const MAX_ENTRIES = 10_000;

// Durations of inputs recently probed for a quote (decision 0018). Concurrent quotes of one input share
// one probe and later ones reuse its answer, so a burst of creates from one upload costs one ffprobe on
// one worker instead of one each, and none of them falls back to the maximum-duration quote.
export class ProbedDurations {
  private readonly durations: LRUCache<string, number, ProbeDuration>;

  constructor(ttlMs: number, clock: { now(): number } = performance) {
    this.durations = new LRUCache<string, number, ProbeDuration>({
      max: MAX_ENTRIES,
      ttl: ttlMs,
      ttlResolution: 0,
      perf: clock,
      // An unknown duration (undefined here) is not kept: the next quote of the input probes again.
      fetchMethod: async (_key, _stale, { context }) => (await context()) ?? undefined,
    });
  }

  // Per account: one account's quotes never tell it what another has probed.
  async durationOf(accountId: string, input: JobInputV1, probe: ProbeDuration): Promise<number | null> {
    const duration = await this.durations.fetch(`${accountId} ${inputKey(input)}`, { context: probe });
    return duration ?? null;
  }
}

function inputKey(input: JobInputV1): string {
  // An upload PUT again holds other bytes: its new ETag is another input.
  return input.kind === 'upload' ? `upload ${input.object_key} ${input.etag ?? ''}` : `url ${input.url}`;
}
