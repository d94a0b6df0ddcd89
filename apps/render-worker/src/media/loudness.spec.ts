import { firstLoudnessPlan, loudnessFilter, nextLoudnessPlan, parseEbur128Summary } from './loudness';

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
      'volume=2.00dB,alimiter=limit=0.7943:level=false:latency=true',
    );
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

  it('gives up when nothing is left to change', () => {
    const capped = { gainDb: 13, ceilingDb: -2 };
    expect(nextLoudnessPlan(capped, { integratedLufs: -30, truePeakDb: -3 }, { integratedLufs: -12, truePeakDb: -1.5 }, -8)).toBeNull();
  });
});
