// Loudness normalisation, measured with ffmpeg's ebur128 (EBU R128 / BS.1770) and applied as a
// plain gain plus a peak limiter, then checked on the encoded file.
//
// Not loudnorm: on the speech in shared/media its pass-1 input_i read 0.8 LU off both ebur128 and
// an independent BS.1770 implementation (5-7 s clips), and its pass 2 landed at -37.6 LUFS for a
// -19 target on a 3 s clip. Gain is exact; the limiter only touches peaks.

export interface LoudnessMeasurement {
  integratedLufs: number;
  truePeakDb: number;
}

export interface LoudnessPlan {
  gainDb: number;
  // Sample-peak ceiling for the limiter, kept below the true-peak limit for inter-sample peaks
  // and encoder overshoot.
  ceilingDb: number;
  // Gain after the limiter, always negative: the peak-only correction that scales the limited
  // audio down when the delivered true peak is still over the limit (see peakCorrection).
  trimDb?: number;
}

// The spec's ceiling for the delivered file (docs/spec/api-v1.md, target_lufs).
export const TRUE_PEAK_LIMIT_DB = -1;
// Within this of the target the result is kept; the spec allows 1 LU.
export const LOUDNESS_TOLERANCE_LU = 0.5;
const FIRST_CEILING_DB = -2;
// alimiter's lowest limit (0.0625).
const LOWEST_CEILING_DB = -24;
// Taken off the delivered true peak beyond the overshoot, so the next encode lands under the limit.
const PEAK_MARGIN_DB = 0.3;
// The peak-only correction's margin: more, as the encoder's peaks do not follow the level exactly
// (on a hot square wave a 1 dB trim left the AAC peak where it was; 2 dB took it 1.9 dB down).
const TRIM_MARGIN_DB = 0.5;
// Most peak reduction asked of the limiter. Past it speech gains little loudness and sounds
// crushed: targets above about -12 LUFS then land below target (peaks win over loudness).
const MAX_LIMITING_DB = 12;
// Below ebur128's absolute gate there is nothing to normalise (silence): gain would only raise hiss.
const SILENCE_LUFS = -70;

// framelog=verbose moves the per-frame lines below the default log level: only the summary prints.
export const EBUR128_FILTER = 'ebur128=peak=true:framelog=verbose';

// Integrated loudness only: no true peak, whose 4x oversampling is most of the filter's cost.
export const EBUR128_INTEGRATED_FILTER = 'ebur128=framelog=verbose';

// The integrated loudness of an EBUR128_INTEGRATED_FILTER summary; -Infinity for silence.
export function parseIntegratedLoudness(stderr: string): number {
  const integrated = /\bI:\s+(-?(?:[\d.]+|inf)) LUFS/.exec(stderr.slice(stderr.lastIndexOf('Summary:')));
  if (!integrated) throw new Error('ebur128 printed no loudness summary');
  return decibels(integrated[1]);
}

// The summary ebur128 prints at the end of stderr; silence reads "-inf" (-Infinity).
export function parseEbur128Summary(stderr: string): LoudnessMeasurement {
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const integrated = /\bI:\s+(-?(?:[\d.]+|inf)) LUFS/.exec(summary);
  const peak = /\bPeak:\s+(-?(?:[\d.]+|inf)) dBFS/.exec(summary);
  if (!integrated || !peak) throw new Error('ebur128 printed no loudness summary');
  return { integratedLufs: decibels(integrated[1]), truePeakDb: decibels(peak[1]) };
}

// null: silence, nothing to apply.
export function firstLoudnessPlan(measured: LoudnessMeasurement, targetLufs: number): LoudnessPlan | null {
  if (!(measured.integratedLufs > SILENCE_LUFS) || !Number.isFinite(measured.truePeakDb)) return null;
  return { gainDb: cappedGain(targetLufs - measured.integratedLufs, FIRST_CEILING_DB, measured), ceilingDb: FIRST_CEILING_DB };
}

// volume, and alimiter only where the gain would take the peaks past the ceiling; latency=true
// removes the limiter's look-ahead delay so the audio stays in sync with the picture.
// A trim, when the plan has one, scales the result down after the limiter.
// The limiter acts in 1 ms and lets go in 20 ms, not its default 5 and 50: it changes only the
// peaks, not the syllables around them (clean speech lifted 6 dB into a -2 dB ceiling kept 26.5 dB
// SI-SDR against itself instead of 24.7; 0.5 and 5 ms would keep 29.3 but distort low voices).
export function loudnessFilter(plan: LoudnessPlan, measured: LoudnessMeasurement): string {
  const filters = [`volume=${plan.gainDb.toFixed(2)}dB`];
  if (measured.truePeakDb + plan.gainDb > plan.ceilingDb) {
    filters.push(`alimiter=limit=${(10 ** (plan.ceilingDb / 20)).toFixed(4)}:attack=1:release=20:level=false:latency=true`);
  }
  if (plan.trimDb) filters.push(`volume=${plan.trimDb.toFixed(2)}dB`);
  return filters.join(',');
}

// Whether a delivered file breaks the true-peak limit; an unreadable peak counts as over.
export function overPeakLimit(delivered: LoudnessMeasurement): boolean {
  return !(delivered.truePeakDb <= TRUE_PEAK_LIMIT_DB);
}

// After checking the encoded file: the next plan, or null when it meets the target and the limit,
// or when it peaks at most at the limit and nothing is left to change for the loudness. Limiting
// lowers loudness and encoders overshoot peaks, so gain and ceiling are corrected from what was
// delivered. Never null while the delivered peak is over the limit: the ceiling wins over the target.
export function nextLoudnessPlan(
  plan: LoudnessPlan,
  measured: LoudnessMeasurement,
  delivered: LoudnessMeasurement,
  targetLufs: number,
): LoudnessPlan | null {
  const over = overPeakLimit(delivered);
  const missLu = targetLufs - delivered.integratedLufs;
  if (!over && Math.abs(missLu) <= LOUDNESS_TOLERANCE_LU) return null;
  // A trimmed plan is already past loudness corrections: only its peak is corrected further; so is
  // a peak that cannot be read as a number.
  if (plan.trimDb || (over && !Number.isFinite(delivered.truePeakDb))) return peakCorrection(plan, delivered);
  const overshootDb = delivered.truePeakDb - TRUE_PEAK_LIMIT_DB;
  const peakBeforeEncoding = Math.min(plan.ceilingDb, measured.truePeakDb + plan.gainDb);
  const ceilingDb = over ? Math.max(LOWEST_CEILING_DB, round(peakBeforeEncoding - overshootDb - PEAK_MARGIN_DB)) : plan.ceilingDb;
  // Over the limit with the ceiling as low as the limiter goes: only scaling down lowers the peak.
  if (over && ceilingDb === plan.ceilingDb) return peakCorrection(plan, delivered);
  const gainDb = Math.abs(missLu) > LOUDNESS_TOLERANCE_LU ? cappedGain(plan.gainDb + missLu, ceilingDb, measured) : plan.gainDb;
  // Nothing left to change: the delivered file is kept, its loudness off target.
  return gainDb === plan.gainDb && ceilingDb === plan.ceilingDb ? null : { gainDb, ceilingDb };
}

// Peak only, for when the loudness attempts are spent or the ceiling is as low as it goes: the
// same plan with the limited audio scaled down by the overshoot plus a margin, which lowers the
// delivered peak by about as much (and the loudness with it: the ceiling wins). null when the
// delivered file is within the limit.
export function peakCorrection(plan: LoudnessPlan, delivered: LoudnessMeasurement): LoudnessPlan | null {
  if (!overPeakLimit(delivered)) return null;
  const overshootDb = Number.isFinite(delivered.truePeakDb) ? delivered.truePeakDb - TRUE_PEAK_LIMIT_DB : 0;
  return { ...plan, trimDb: round((plan.trimDb ?? 0) - overshootDb - TRIM_MARGIN_DB) };
}

function cappedGain(gainDb: number, ceilingDb: number, measured: LoudnessMeasurement): number {
  return round(Math.min(gainDb, ceilingDb - measured.truePeakDb + MAX_LIMITING_DB));
}

function decibels(text: string): number {
  return text.endsWith('inf') ? (text.startsWith('-') ? -Infinity : Infinity) : Number(text);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
