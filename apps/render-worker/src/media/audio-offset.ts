import { readFile } from 'node:fs/promises';

// The delivered audio's offset against the source's, for the quality report (decision 0098), read
// from runs the job makes anyway: the decode of the source and the measuring of the muxer's tap (the
// very packets written into the file) each write their opening as samples at a low rate, placed from
// time 0 as the denoiser's decode places audio (a late start padded). The two are cross-correlated,
// and the tap's priming, which a player of the delivered file skips, is taken off. Positive: the
// delivered audio plays later than the source's.
//
// Found in two steps so 30 s of audio costs milliseconds: the loudness envelopes (see envelope) over
// the whole search range, then the waveform itself within a few steps of the envelopes' best lag.
// The envelope is what speech and its denoised self share most; the waveform gives the millisecond.
// Either step with a second peak nearly as good as its best answers null: periodic sound tells no
// offset, and a guess is not a measurement.

// The rate both are decoded at: a millisecond a sample. Speech keeps its voicing below 500 Hz.
export const OFFSET_RATE = 1000;
// How much of the timeline is compared: enough speech to tell, little to decode.
export const OFFSET_SECONDS = 30;
// The farthest offset looked for, either way.
const MAX_OFFSET_SAMPLES = OFFSET_RATE;
// The envelope's step and window, in samples (see envelope).
const ENVELOPE_STEP = 4;
const ENVELOPE_WINDOW = 20;
// How far around the envelopes' best lag the waveform is searched: a few steps, and far enough to
// see a voice's next pitch period (up to 10 ms) match as well.
const FINE_REACH = 24;
// Below this normalised correlation the two do not share enough to tell an offset (silence, noise
// the denoiser removed whole): the report says null rather than a guess.
const MIN_CORRELATION = 0.2;
// A second peak this close to the best makes the lag a guess (see ambiguous).
const AMBIGUOUS_SHARE = 0.9;

// The two runs' samples, less the tap's priming (OutputFormat.audioTap) in ms. Null where the audio
// cannot tell it.
export async function readAudioOffsetMs(sourceSamplesPath: string, deliveredSamplesPath: string, primingMs: number): Promise<number | null> {
  const [source, delivered] = await Promise.all([readFloats(sourceSamplesPath), readFloats(deliveredSamplesPath)]);
  const lag = audioOffsetMs(source, delivered);
  // `|| 0`: a rounded -0.3 is 0, not -0.
  return lag === null ? null : Math.round(lag - primingMs) || 0;
}

// `source` and `delivered`: mono samples at OFFSET_RATE from their files' time 0.
export function audioOffsetMs(source: Float32Array, delivered: Float32Array): number | null {
  const envelopes = correlations(envelope(source), envelope(delivered), Math.ceil(MAX_OFFSET_SAMPLES / ENVELOPE_STEP), 0);
  const coarse = bestLag(envelopes);
  if (coarse === null || ambiguous(envelopes, coarse)) return null;
  const fine = correlations(source, delivered, FINE_REACH, coarse.lag * ENVELOPE_STEP);
  const best = bestLag(fine);
  if (best === null || best.correlation < MIN_CORRELATION || ambiguous(fine, best)) return null;
  return Math.round((best.lag * 1000) / OFFSET_RATE);
}

interface LagCorrelation {
  lag: number;
  // Normalised by both signals' energy over the compared samples; null where either is silent.
  correlation: number | null;
}

// For each lag within `reach` of `around`, how well `delivered[i + lag]` matches `source[i]`.
function correlations(source: Float32Array, delivered: Float32Array, reach: number, around: number): LagCorrelation[] {
  const found: LagCorrelation[] = [];
  for (let lag = around - reach; lag <= around + reach; lag++) {
    const from = Math.max(0, -lag);
    const to = Math.min(source.length, delivered.length - lag);
    let product = 0;
    let sourceEnergy = 0;
    let deliveredEnergy = 0;
    for (let i = from; i < to; i++) {
      const s = source[i];
      const d = delivered[i + lag];
      product += s * d;
      sourceEnergy += s * s;
      deliveredEnergy += d * d;
    }
    found.push({ lag, correlation: sourceEnergy === 0 || deliveredEnergy === 0 ? null : product / Math.sqrt(sourceEnergy * deliveredEnergy) });
  }
  return found;
}

function bestLag(found: LagCorrelation[]): { lag: number; correlation: number } | null {
  let best: { lag: number; correlation: number } | null = null;
  for (const { lag, correlation } of found) if (correlation !== null && (!best || correlation > best.correlation)) best = { lag, correlation };
  return best;
}

// Whether a lag outside the best's own peak (the lags around it within AMBIGUOUS_SHARE of it) comes
// as close: a steady tone matches itself a period later as well as in place, and syllables at a
// steady beat match their neighbours; neither tells an offset.
function ambiguous(found: LagCorrelation[], best: { lag: number; correlation: number }): boolean {
  const close = (at: number): boolean => (found[at]?.correlation ?? -Infinity) >= AMBIGUOUS_SHARE * best.correlation;
  const at = found.findIndex(({ lag }) => lag === best.lag);
  let [first, last] = [at, at];
  while (close(first - 1)) first--;
  while (close(last + 1)) last++;
  return found.some((_, i) => (i < first || i > last) && close(i));
}

// The mean absolute level over ENVELOPE_WINDOW samples every ENVELOPE_STEP, less its own mean: what
// rises and falls with the speech, not the level of a steady noise under it. The window spans two
// periods of a low voice, so the voicing itself does not ripple the envelope.
function envelope(samples: Float32Array): Float32Array {
  const steps = Math.max(0, Math.floor((samples.length - ENVELOPE_WINDOW) / ENVELOPE_STEP) + 1);
  const levels = new Float32Array(steps);
  let total = 0;
  for (let step = 0; step < steps; step++) {
    let sum = 0;
    for (let i = step * ENVELOPE_STEP; i < step * ENVELOPE_STEP + ENVELOPE_WINDOW; i++) sum += samples[i] < 0 ? -samples[i] : samples[i];
    levels[step] = sum / ENVELOPE_WINDOW;
    total += levels[step];
  }
  const mean = steps === 0 ? 0 : total / steps;
  for (let step = 0; step < steps; step++) levels[step] -= mean;
  return levels;
}

async function readFloats(path: string): Promise<Float32Array> {
  const bytes = await readFile(path);
  const length = Math.floor(bytes.length / 4);
  // Copied out: a Buffer's offset in its memory need not be a multiple of 4.
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + length * 4));
}
