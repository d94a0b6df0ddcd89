import { levelsFilter, noiseFloorOf } from './noise-floor';
import { pictureHashOf } from './picture-hash';

const levels = (values: string[]): string => values.map((value, i) => `frame:${i} pts:${i * 4800} pts_time:${i / 10}\nlavfi.astats.Overall.RMS_level=${value}\n`).join('');

describe('noiseFloorOf', () => {
  it('is the 10th percentile of the 100 ms levels, digital silence left out', () => {
    const speech = Array.from({ length: 9 }, () => '-20.0');
    expect(noiseFloorOf(levels(['-inf', '-inf', '-inf', '-61.24', ...speech]))).toBe(-61.2);
    expect(noiseFloorOf(levels(['-130.0', '-55.0', '-50.0', ...speech]))).toBe(-50);
  });

  it('is null for a stream that is silent all through', () => {
    expect(noiseFloorOf(levels(['-inf', '-inf']))).toBeNull();
    expect(noiseFloorOf('')).toBeNull();
  });

  it('names its levels file plainly, relative to the run’s folder', () => {
    expect(levelsFilter('input-levels.txt')).toMatch(/ametadata=mode=print:key=lavfi\.astats\.Overall\.RMS_level:file=input-levels\.txt$/);
  });
});

describe('pictureHashOf', () => {
  it('reads the picture stream’s SHA-256 from streamhash, and refuses anything else', () => {
    const hex = 'a'.repeat(64);
    expect(pictureHashOf(`0,v,SHA256=${hex}\n`)).toBe(hex);
    expect(() => pictureHashOf('0,a,SHA256=00\n')).toThrow(/no picture hash/);
  });
});
