import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gatedLoudness, readDenoisedLoudness } from './denoised-loudness';

// A 10 ms frame's energy (sum of 480 squared K-weighted samples) for a steady loudness.
function frameAt(lufs: number): number {
  return 480 * 10 ** ((lufs + 0.691) / 10);
}

function frames(...runs: Array<[lufs: number, seconds: number]>): Float64Array {
  return Float64Array.from(runs.flatMap(([lufs, seconds]) => new Array<number>(Math.round(seconds * 100)).fill(lufs === -Infinity ? 0 : frameAt(lufs))));
}

describe('gatedLoudness', () => {
  it('reads a steady level as that level', () => {
    expect(gatedLoudness(frames([-23, 3]))).toBeCloseTo(-23, 10);
  });

  it('leaves blocks under -70 LUFS out: a longer pause does not lower speech', () => {
    const speech = gatedLoudness(frames([-20, 2], [-Infinity, 1], [-20, 2]));
    expect(speech).toBeGreaterThan(-20.5);
    expect(gatedLoudness(frames([-20, 2], [-Infinity, 5], [-20, 2]))).toBeCloseTo(speech, 10);
  });

  it('leaves blocks 10 LU under the loudness of the audible ones out', () => {
    // -45 passes the absolute gate but not the relative one; -22 passes both and counts.
    const withQuiet = gatedLoudness(frames([-20, 5], [-45, 1]));
    expect(gatedLoudness(frames([-20, 5], [-45, 5]))).toBeCloseTo(withQuiet, 10);
    expect(gatedLoudness(frames([-20, 5], [-22, 5]))).toBeCloseTo(-0.691 + 10 * Math.log10((10 ** ((-20 + 0.691) / 10) + 10 ** ((-22 + 0.691) / 10)) / 2), 1);
  });

  it('has no loudness for silence or audio shorter than one 400 ms block', () => {
    expect(gatedLoudness(frames([-Infinity, 2]))).toBe(-Infinity);
    expect(gatedLoudness(Float64Array.from(new Array<number>(39).fill(frameAt(-20))))).toBe(-Infinity);
    expect(gatedLoudness(Float64Array.from(new Array<number>(40).fill(frameAt(-20))))).toBeCloseTo(-20, 10);
  });
});

describe('readDenoisedLoudness', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'vj-denoised-loudness-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // A meter file as loudness-meter.mjs saves it: each frame's energy, then its peak.
  function saved(name: string, energies: Float64Array, peaks: (frame: number) => number): string {
    const path = join(dir, name);
    writeFileSync(path, Float64Array.from({ length: 2 * energies.length }, (_, i) => (i % 2 === 0 ? energies[i / 2] : peaks((i - 1) / 2))));
    return path;
  }

  it('gates the parts as one file and takes the highest peak', async () => {
    // The seam falls inside 0.4 s of -24 LUFS: only blocks across it hold that stretch whole.
    const first = saved('0', frames([-20, 1], [-24, 0.2]), () => 0.5);
    const second = saved('1', frames([-24, 0.2], [-20, 1]), () => 0.25);
    const measured = await readDenoisedLoudness([{ path: first }, { path: second }]);
    expect(measured.integratedLufs).toBeCloseTo(gatedLoudness(frames([-20, 1], [-24, 0.4], [-20, 1])), 10);
    expect(measured.truePeakDb).toBeCloseTo(20 * Math.log10(0.5), 10);
  });

  it('keeps only the frames each part kept: its pre-roll and the frame past its end are left out', async () => {
    // 1 s of pre-roll at -10 LUFS peaking at 0.9, 2 s of the part at -30 peaking at 0.1, a frame past it.
    const path = saved('part', frames([-10, 1], [-30, 2], [-10, 0.01]), (frame) => (frame >= 100 && frame < 300 ? 0.1 : 0.9));
    const measured = await readDenoisedLoudness([{ path, firstFrame: 100, frames: 200 }]);
    expect(measured.integratedLufs).toBeCloseTo(-30, 10);
    expect(measured.truePeakDb).toBeCloseTo(20 * Math.log10(0.1), 10);
  });

  it('reads an empty measurement as silence, and fails on a missing one', async () => {
    expect(await readDenoisedLoudness([{ path: saved('empty', new Float64Array(0), () => 0) }])).toEqual({ integratedLufs: -Infinity, truePeakDb: -Infinity });
    await expect(readDenoisedLoudness([{ path: join(dir, 'missing') }])).rejects.toThrow('ENOENT');
  });
});
