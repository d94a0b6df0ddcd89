import { firstLoudnessPlan, loudnessFilter, nextLoudnessPlan, overPeakLimit, parseEbur128Summary, parseIntegratedLoudness, peakCorrection } from './loudness';

// The end of ffmpeg 5.1's stderr with ebur128=peak=true.
const SUMMARY = `size=N/A time=00:00:07.10 bitrate=N/A speed= 137x
video:0kB audio:666kB subtitle:0kB other streams:0kB global headers:0kB muxing overhead: unknown
[Parsed_ebur128_0 @ 0x55f172565080] Summary:

  Integrated loudness:
    I:         -18.8 LUFS
    Threshold: -28.9 LUFS

  Loudness range:
    LRA:         5.5 LU
    Threshold: -39.0 LUFS
    LRA low:   -22.3 LUFS
    LRA high:  -16.9 LUFS

  True peak:
    Peak:       -1.5 dBFS
`;

const SILENCE = `[Parsed_ebur128_0 @ 0x5582dbc4d200] Summary:

  Integrated loudness:
    I:         -70.0 LUFS
    Threshold:   0.0 LUFS

  True peak:
    Peak:       -inf dBFS
`;

describe('parseEbur128Summary', () => {
  it('reads integrated loudness and true peak', () => {
    expect(parseEbur128Summary(SUMMARY)).toEqual({ integratedLufs: -18.8, truePeakDb: -1.5 });
  });

  it('reads silence as -70 LUFS and a -Infinity peak', () => {
    expect(parseEbur128Summary(SILENCE)).toEqual({ integratedLufs: -70, truePeakDb: -Infinity });
  });

  it('fails loudly when there is no summary', () => {
    expect(() => parseEbur128Summary('Conversion failed!')).toThrow(/no loudness summary/);
  });
});

describe('parseIntegratedLoudness', () => {
  it('reads the integrated loudness of a summary with or without a true peak', () => {
    expect(parseIntegratedLoudness(SUMMARY)).toBe(-18.8);
    expect(parseIntegratedLoudness(SUMMARY.slice(0, SUMMARY.indexOf('True peak')))).toBe(-18.8);
    expect(() => parseIntegratedLoudness('Conversion failed!')).toThrow(/no loudness summary/);
  });
});

describe('firstLoudnessPlan', () => {
  it('applies the gain from the measured to the target loudness under a -2 dB ceiling', () => {
    expect(firstLoudnessPlan({ integratedLufs: -25.55, truePeakDb: -12 }, -19)).toEqual({ gainDb: 6.55, ceilingDb: -2 });
  });

  it('caps the gain at 12 dB of limiting', () => {
    expect(firstLoudnessPlan({ integratedLufs: -30, truePeakDb: -3 }, -8)).toEqual({ gainDb: 13, ceilingDb: -2 });
  });

  it('leaves silence alone', () => {
    expect(firstLoudnessPlan({ integratedLufs: -70, truePeakDb: -Infinity }, -19)).toBeNull();
    expect(firstLoudnessPlan({ integratedLufs: -Infinity, truePeakDb: -80 }, -19)).toBeNull();
  });
});

describe('loudnessFilter', () => {
  it('is a plain gain when the peaks stay under the ceiling', () => {
    expect(loudnessFilter({ gainDb: -3.5, ceilingDb: -2 }, { integratedLufs: -15.5, truePeakDb: -1 })).toBe('volume=-3.50dB');
  });

  it('adds a delay-compensated limiter at the ceiling when the gain takes the peaks past it', () => {
    expect(loudnessFilter({ gainDb: 2, ceilingDb: -2 }, { integratedLufs: -21, truePeakDb: -3 })).toBe(
      'volume=2.00dB,alimiter=limit=0.7943:attack=1:release=20:level=false:latency=true',
    );
  });

  it('scales the limited audio down after the limiter by the trim', () => {
    expect(loudnessFilter({ gainDb: 2, ceilingDb: -2, trimDb: -1.3 }, { integratedLufs: -21, truePeakDb: -3 })).toBe(
      'volume=2.00dB,alimiter=limit=0.7943:attack=1:release=20:level=false:latency=true,volume=-1.30dB',
    );
    expect(loudnessFilter({ gainDb: -3.5, ceilingDb: -2, trimDb: -0.8 }, { integratedLufs: -15.5, truePeakDb: -1 })).toBe('volume=-3.50dB,volume=-0.80dB');
  });
});

describe('overPeakLimit', () => {
  it('is over above -1 dBTP, and for a peak that is not a number', () => {
    expect(overPeakLimit({ integratedLufs: -19, truePeakDb: -1 })).toBe(false);
    expect(overPeakLimit({ integratedLufs: -70, truePeakDb: -Infinity })).toBe(false);
    expect(overPeakLimit({ integratedLufs: -19, truePeakDb: -0.9 })).toBe(true);
    expect(overPeakLimit({ integratedLufs: -19, truePeakDb: Number.NaN })).toBe(true);
  });
});

describe('peakCorrection', () => {
  const plan = { gainDb: 5.8, ceilingDb: -5.2 };

  it('is done when the delivered peak is at most -1 dBTP, whatever the loudness', () => {
    expect(peakCorrection(plan, { integratedLufs: -12.6, truePeakDb: -1 })).toBeNull();
  });

  it('trims by the overshoot plus a 0.5 dB margin, keeping gain and ceiling', () => {
    expect(peakCorrection(plan, { integratedLufs: -12.6, truePeakDb: -0.5 })).toEqual({ gainDb: 5.8, ceilingDb: -5.2, trimDb: -1 });
  });

  it('trims further from an earlier trim', () => {
    expect(peakCorrection({ ...plan, trimDb: -1 }, { integratedLufs: -13.6, truePeakDb: -0.5 })).toEqual({ ...plan, trimDb: -2 });
  });

  it('trims by the margin when the peak cannot be read', () => {
    expect(peakCorrection(plan, { integratedLufs: -12.6, truePeakDb: Number.NaN })).toEqual({ ...plan, trimDb: -0.5 });
  });
});

describe('nextLoudnessPlan', () => {
  const measured = { integratedLufs: -21, truePeakDb: -3 };
  const plan = { gainDb: 2, ceilingDb: -2 };

  it('is done when the delivered file is within 0.5 LU of the target and peaks at most -1 dBTP', () => {
    expect(nextLoudnessPlan(plan, measured, { integratedLufs: -19.4, truePeakDb: -1 }, -19)).toBeNull();
  });

  it('raises the gain by what limiting took off the loudness', () => {
    expect(nextLoudnessPlan(plan, measured, { integratedLufs: -19.8, truePeakDb: -1.9 }, -19)).toEqual({ gainDb: 2.8, ceilingDb: -2 });
  });

  it('lowers the ceiling by the encoder overshoot plus a margin', () => {
    expect(nextLoudnessPlan(plan, measured, { integratedLufs: -19.1, truePeakDb: 0.5 }, -19)).toEqual({ gainDb: 2, ceilingDb: -3.8 });
  });

  it('starts from the real peak when the limiter was not engaged', () => {
    const quiet = { gainDb: -10, ceilingDb: -2 };
    expect(nextLoudnessPlan(quiet, measured, { integratedLufs: -31, truePeakDb: -0.5 }, -31)).toEqual({ gainDb: -10, ceilingDb: -13.8 });
  });

  it('keeps a file within the peak limit when nothing is left to change for the loudness', () => {
    const capped = { gainDb: 13, ceilingDb: -2 };
    expect(nextLoudnessPlan(capped, { integratedLufs: -30, truePeakDb: -3 }, { integratedLufs: -12, truePeakDb: -1.5 }, -8)).toBeNull();
  });

  it('lowers the ceiling while the peak is over even when the loudness then lands further below target', () => {
    const hot = { integratedLufs: -10.2, truePeakDb: 1 };
    expect(nextLoudnessPlan({ gainDb: 2.2, ceilingDb: -2 }, hot, { integratedLufs: -10.2, truePeakDb: 1.9 }, -8)).toEqual({
      gainDb: 4.4,
      ceilingDb: -5.2,
    });
  });

  it('trims instead when the ceiling is as low as the limiter goes and the peak is still over', () => {
    // 12 dB of limiting at alimiter's lowest limit: neither gain nor ceiling can move.
    const floor = { gainDb: -9, ceilingDb: -24 };
    const hot = { integratedLufs: -30, truePeakDb: -3 };
    // Both were null before: "nothing left to change", and the file was delivered at -0.4 dBTP.
    expect(nextLoudnessPlan(floor, hot, { integratedLufs: -45, truePeakDb: -0.4 }, -45)).toEqual({ ...floor, trimDb: -1.1 });
    expect(nextLoudnessPlan(floor, hot, { integratedLufs: -45, truePeakDb: -0.4 }, -40)).toEqual({ ...floor, trimDb: -1.1 });
  });

  it('never returns null while the delivered peak is over the limit', () => {
    const hot = { integratedLufs: -30, truePeakDb: -3 };
    for (const plan of [{ gainDb: 13, ceilingDb: -2 }, { gainDb: -9, ceilingDb: -24 }, { gainDb: -9, ceilingDb: -24, trimDb: -2 }]) {
      for (const truePeakDb of [-0.9, 0, 3, Number.NaN, Infinity]) {
        for (const integratedLufs of [-40, -19, -8]) {
          expect(nextLoudnessPlan(plan, hot, { integratedLufs, truePeakDb }, -19)).not.toBeNull();
        }
      }
    }
  });

  it('corrects only the peak of a trimmed plan', () => {
    const trimmed = { gainDb: 5.8, ceilingDb: -5.2, trimDb: -1 };
    expect(nextLoudnessPlan(trimmed, measured, { integratedLufs: -13.6, truePeakDb: -0.5 }, -8)).toEqual({ ...trimmed, trimDb: -2 });
    expect(nextLoudnessPlan(trimmed, measured, { integratedLufs: -13.6, truePeakDb: -2.6 }, -8)).toBeNull();
  });
});
