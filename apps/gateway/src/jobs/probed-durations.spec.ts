import type { JobInputV1 } from '@vj/contracts';
import { ProbedDurations } from './probed-durations';

const UPLOAD: JobInputV1 = { kind: 'upload', upload_id: 'up-1', object_key: 'uploads/acc-1/up-1' };
const URL_INPUT: JobInputV1 = { kind: 'url', url: 'https://media.example.com/clip.mp4' };

function countingProbe(answer: number | null) {
  const probe = Object.assign(async () => (probe.calls++, answer), { calls: 0 });
  return probe;
}

describe('ProbedDurations', () => {
  it('shares one probe among concurrent quotes of the same input', async () => {
    const durations = new ProbedDurations(60_000);
    let release!: (seconds: number) => void;
    let calls = 0;
    const probe = () => (calls++, new Promise<number>((resolve) => (release = resolve)));
    const quotes = Array.from({ length: 50 }, () => durations.durationOf('acc-1', UPLOAD, probe));
    release(12.4);
    expect(await Promise.all(quotes)).toEqual(Array(50).fill(12.4));
    expect(calls).toBe(1);
  });

  it('reuses a duration within its time to live and probes again after it', async () => {
    const clock = { ms: 1_000, now: () => clock.ms };
    const durations = new ProbedDurations(60_000, clock);
    const probe = countingProbe(7);
    await durations.durationOf('acc-1', URL_INPUT, probe);
    clock.ms += 59_000;
    expect(await durations.durationOf('acc-1', URL_INPUT, probe)).toBe(7);
    expect(probe.calls).toBe(1);
    clock.ms += 2_000;
    await durations.durationOf('acc-1', URL_INPUT, probe);
    expect(probe.calls).toBe(2);
  });

  it('keeps no unknown duration: the next quote probes again', async () => {
    const durations = new ProbedDurations(60_000);
    const probe = countingProbe(null);
    expect(await durations.durationOf('acc-1', URL_INPUT, probe)).toBeNull();
    expect(await durations.durationOf('acc-1', URL_INPUT, probe)).toBeNull();
    expect(probe.calls).toBe(2);
  });

  it('keeps the durations of different inputs and different accounts apart', async () => {
    const durations = new ProbedDurations(60_000);
    expect(await durations.durationOf('acc-1', URL_INPUT, countingProbe(7))).toBe(7);
    expect(await durations.durationOf('acc-2', URL_INPUT, countingProbe(8))).toBe(8);
    expect(await durations.durationOf('acc-1', { kind: 'url', url: 'https://media.example.com/other.mp4' }, countingProbe(9))).toBe(9);
    expect(await durations.durationOf('acc-1', UPLOAD, countingProbe(10))).toBe(10);
    expect(await durations.durationOf('acc-1', URL_INPUT, countingProbe(99))).toBe(7);
  });
});
