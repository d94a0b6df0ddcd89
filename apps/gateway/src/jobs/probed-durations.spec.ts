import type { JobInputV1 } from '@vj/contracts';
import { ProbedDurations, type ProbeOutcome } from './probed-durations';

const UPLOAD: JobInputV1 = { kind: 'upload', upload_id: 'up-1', object_key: 'uploads/acc-1/up-1' };
const URL_INPUT: JobInputV1 = { kind: 'url', url: 'https://media.example.com/clip.mp4' };

function countingProbe(answer: ProbeOutcome) {
  const probe = Object.assign(async () => (probe.calls++, answer), { calls: 0 });
  return probe;
}

const seconds = (value: number): ProbeOutcome => ({ seconds: value });
const UNKNOWN: ProbeOutcome = { seconds: null, timedOut: false };
const TIMED_OUT: ProbeOutcome = { seconds: null, timedOut: true };

describe('ProbedDurations', () => {
  it('shares one probe among concurrent quotes of the same input', async () => {
    const durations = new ProbedDurations(60_000);
    let release!: (outcome: ProbeOutcome) => void;
    let calls = 0;
    const probe = () => (calls++, new Promise<ProbeOutcome>((resolve) => (release = resolve)));
    const quotes = Array.from({ length: 50 }, () => durations.durationOf('acc-1', UPLOAD, probe));
    release(seconds(12.4));
    expect(await Promise.all(quotes)).toEqual(Array(50).fill(seconds(12.4)));
    expect(calls).toBe(1);
  });

  it('gives every concurrent quote the outcome of a shared probe that found no duration', async () => {
    const durations = new ProbedDurations(60_000);
    let release!: (outcome: ProbeOutcome) => void;
    const probe = () => new Promise<ProbeOutcome>((resolve) => (release = resolve));
    const quotes = Array.from({ length: 5 }, () => durations.durationOf('acc-1', UPLOAD, probe));
    release(TIMED_OUT);
    expect(await Promise.all(quotes)).toEqual(Array(5).fill(TIMED_OUT));
  });

  it('reuses a duration within its time to live and probes again after it', async () => {
    const clock = { ms: 1_000, now: () => clock.ms };
    const durations = new ProbedDurations(60_000, clock);
    const probe = countingProbe(seconds(7));
    await durations.durationOf('acc-1', URL_INPUT, probe);
    clock.ms += 59_000;
    expect(await durations.durationOf('acc-1', URL_INPUT, probe)).toEqual(seconds(7));
    expect(probe.calls).toBe(1);
    clock.ms += 2_000;
    await durations.durationOf('acc-1', URL_INPUT, probe);
    expect(probe.calls).toBe(2);
  });

  it.each([
    ['unknown', UNKNOWN],
    ['timed out', TIMED_OUT],
  ])('keeps no %s duration: the next quote probes again', async (_name, outcome) => {
    const durations = new ProbedDurations(60_000);
    const probe = countingProbe(outcome);
    expect(await durations.durationOf('acc-1', URL_INPUT, probe)).toEqual(outcome);
    expect(await durations.durationOf('acc-1', URL_INPUT, probe)).toEqual(outcome);
    expect(probe.calls).toBe(2);
  });

  it('keeps the durations of different inputs and different accounts apart', async () => {
    const durations = new ProbedDurations(60_000);
    expect(await durations.durationOf('acc-1', URL_INPUT, countingProbe(seconds(7)))).toEqual(seconds(7));
    expect(await durations.durationOf('acc-2', URL_INPUT, countingProbe(seconds(8)))).toEqual(seconds(8));
    expect(await durations.durationOf('acc-1', { kind: 'url', url: 'https://media.example.com/other.mp4' }, countingProbe(seconds(9)))).toEqual(seconds(9));
    expect(await durations.durationOf('acc-1', UPLOAD, countingProbe(seconds(10)))).toEqual(seconds(10));
    expect(await durations.durationOf('acc-1', URL_INPUT, countingProbe(seconds(99)))).toEqual(seconds(7));
  });
});
