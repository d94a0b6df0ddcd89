import { PCM_BYTES_PER_SECOND } from './clean-audio-args';
import { denoiseParts, DENOISE_PREROLL_SECONDS, MIN_PART_SECONDS } from './denoise-parts';

const seconds = (s: number) => s * PCM_BYTES_PER_SECOND;

describe('denoiseParts', () => {
  it('keeps short audio, or one allowed denoiser, in one part with no pre-roll', () => {
    expect(denoiseParts(seconds(20), 4)).toEqual([{ inputStart: 0, inputEnd: seconds(20), dropBytes: 0, keepBytes: seconds(20), outputStart: 0 }]);
    expect(denoiseParts(seconds(600), 1)).toEqual([{ inputStart: 0, inputEnd: seconds(600), dropBytes: 0, keepBytes: seconds(600), outputStart: 0 }]);
    expect(denoiseParts(0, 2)).toEqual([{ inputStart: 0, inputEnd: 0, dropBytes: 0, keepBytes: 0, outputStart: 0 }]);
  });

  it('covers every byte once, parts on frame boundaries, each later part starting a pre-roll early', () => {
    const total = seconds(61) + 1234;
    const parts = denoiseParts(total, 2);
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatchObject({ inputStart: 0, dropBytes: 0, outputStart: 0 });
    expect(parts[1].outputStart).toBe(parts[0].keepBytes);
    // Six frames past the part, for the denoisers' look-ahead (GTCRN's lag and blocks, RNNoise's frame, the spectral window).
    expect(parts[0].inputEnd).toBe(parts[0].keepBytes + 6 * 960);
    expect(parts[1].outputStart % 960).toBe(0);
    expect(parts[1].dropBytes).toBe(seconds(DENOISE_PREROLL_SECONDS));
    expect(parts[1].inputStart).toBe(parts[1].outputStart - parts[1].dropBytes);
    expect(parts[1].inputEnd).toBe(total);
    expect(parts[1].outputStart + parts[1].keepBytes).toBe(total);
  });

  it('makes no part shorter than the minimum, whatever the cores', () => {
    const parts = denoiseParts(seconds(MIN_PART_SECONDS * 3 + 1), 16);
    expect(parts).toHaveLength(3);
    for (const part of parts) expect(part.keepBytes).toBeGreaterThanOrEqual(seconds(MIN_PART_SECONDS) - 960);
  });
});
