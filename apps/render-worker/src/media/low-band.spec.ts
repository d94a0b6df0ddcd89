import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { joinPieces, lowBandEnergyPath, lowBandWeight, readLowBandEnergy } from './low-band';

// The share of the input's low band removed, in dB, as the denoiser's energies.
const removedDb = (db: number) => ({ inputEnergy: 1e6, removedEnergy: 1e6 * 10 ** (db / 10) });

describe('lowBandWeight', () => {
  it('gives all of it back where little was removed (speech alone), none where much was (noise)', () => {
    expect(lowBandWeight([removedDb(-20)])).toBe(1);
    expect(lowBandWeight([removedDb(-14)])).toBe(1);
    expect(lowBandWeight([removedDb(-12)])).toBe(0);
    expect(lowBandWeight([removedDb(-5)])).toBe(0);
  });

  it('goes from one to the other in a straight line', () => {
    expect(lowBandWeight([removedDb(-13)])).toBe(0.5);
    expect(lowBandWeight([removedDb(-13.6)])).toBe(0.8);
  });

  it("decides once over all the parts' energies together", () => {
    // One part of clean speech, one of loud rumble: the rumble's energy decides.
    expect(lowBandWeight([removedDb(-20), { inputEnergy: 1e7, removedEnergy: 5e6 }])).toBe(0);
  });

  it('gives nothing back from a silent low band, and all of an untouched one', () => {
    expect(lowBandWeight([{ inputEnergy: 0, removedEnergy: 0 }])).toBe(0);
    expect(lowBandWeight([{ inputEnergy: 5, removedEnergy: 0 }])).toBe(1);
  });
});

describe('low-band files', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'vj-low-band-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads the energies the denoiser saved, and refuses a file without them', async () => {
    const path = join(dir, 'low');
    await writeFile(lowBandEnergyPath(path), JSON.stringify({ inputEnergy: 4, removedEnergy: 0.5 }));
    expect(await readLowBandEnergy(path)).toEqual({ inputEnergy: 4, removedEnergy: 0.5 });
    await writeFile(lowBandEnergyPath(path), 'null');
    await expect(readLowBandEnergy(path)).rejects.toThrow('holds no low-band energies');
  });

  it("puts each part's kept range where it belongs in the whole file", async () => {
    await writeFile(join(dir, 'a'), Buffer.from('xxABCDyy'));
    await writeFile(join(dir, 'b'), Buffer.from('zzEFGH'));
    const whole = join(dir, 'whole');
    await joinPieces(
      [
        { path: join(dir, 'a'), start: 2, bytes: 4, at: 0 },
        { path: join(dir, 'b'), start: 2, bytes: 4, at: 4 },
      ],
      whole,
    );
    expect((await readFile(whole)).toString()).toBe('ABCDEFGH');
  });
});
