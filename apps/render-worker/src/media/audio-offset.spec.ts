import { audioOffsetMs, OFFSET_RATE } from './audio-offset';

// Speech-like test audio at OFFSET_RATE: a voiced tone (150 Hz and its harmonics) in syllables of
// uneven length, with pauses, from a fixed seed.
function speechLike(seconds: number, seed = 7): Float32Array {
  let state = seed;
  const random = (): number => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const samples = new Float32Array(seconds * OFFSET_RATE);
  let at = 0;
  while (at < samples.length) {
    const syllable = Math.round((0.08 + 0.25 * random()) * OFFSET_RATE);
    const pause = Math.round((0.03 + 0.2 * random()) * OFFSET_RATE);
    const pitch = 110 + 80 * random();
    for (let i = 0; i < syllable && at + i < samples.length; i++) {
      const t = (at + i) / OFFSET_RATE;
      const rise = Math.sin((Math.PI * i) / syllable);
      samples[at + i] = 0.3 * rise * (Math.sin(2 * Math.PI * pitch * t) + 0.5 * Math.sin(4 * Math.PI * pitch * t) + 0.25 * Math.sin(6 * Math.PI * pitch * t));
    }
    at += syllable + pause;
  }
  return samples;
}

// `signal` played `ms` later (positive) or earlier, on the same timeline.
function shifted(signal: Float32Array, ms: number): Float32Array {
  const lag = Math.round((ms * OFFSET_RATE) / 1000);
  return Float32Array.from(signal, (_, i) => signal[i - lag] ?? 0);
}

function noise(length: number, seed: number, level: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length }, () => level * (2 * ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) - 1));
}

describe('audioOffsetMs', () => {
  const speech = speechLike(20);

  it('reads 0 for audio on the source timeline, and the lag of one that is not, either way', () => {
    expect(audioOffsetMs(speech, speech)).toBe(0);
    for (const ms of [1, 21, -13, 120, -450, 900]) expect(audioOffsetMs(speech, shifted(speech, ms))).toBe(ms);
  });

  it('finds the offset of denoised speech against its noisy source', () => {
    const hiss = noise(speech.length, 3, 0.3);
    const noisy = Float32Array.from(speech, (sample, i) => sample + hiss[i]);
    expect(audioOffsetMs(noisy, shifted(speech, 21))).toBe(21);
  });

  it('reads null where nothing can tell it: silence on either side, or noise the denoiser removed whole', () => {
    const silence = new Float32Array(speech.length);
    expect(audioOffsetMs(silence, speech)).toBeNull();
    expect(audioOffsetMs(speech, silence)).toBeNull();
    expect(audioOffsetMs(noise(speech.length, 5, 0.3), noise(speech.length, 11, 0.01))).toBeNull();
    expect(audioOffsetMs(new Float32Array(0), new Float32Array(0))).toBeNull();
  });

  it('reads null for a steady tone: it matches itself a period later as well as in place', () => {
    const tone = Float32Array.from({ length: 20 * OFFSET_RATE }, (_, i) => (i < 5000 ? 0 : 0.3 * Math.sin((2 * Math.PI * 300 * i) / OFFSET_RATE)));
    expect(audioOffsetMs(tone, shifted(tone, 2))).toBeNull();
  });

  it('reads null for syllables at a steady beat: each matches its neighbour', () => {
    const beat = Float32Array.from({ length: 20 * OFFSET_RATE }, (_, i) => {
      const t = i / OFFSET_RATE;
      return 0.3 * Math.sin(2 * Math.PI * 140 * t) * Math.max(0, Math.sin(2 * Math.PI * 2.5 * t));
    });
    expect(audioOffsetMs(beat, shifted(beat, 3))).toBeNull();
  });

  it('is cheap enough for every job: 30 s of audio in well under a second', () => {
    const long = speechLike(30);
    const delivered = shifted(long, 5);
    const started = process.hrtime.bigint();
    expect(audioOffsetMs(long, delivered)).toBe(5);
    // A bound with a wide margin, not a timing figure: the search is a few million products.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2000);
  });
});
