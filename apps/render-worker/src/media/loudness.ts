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
}

// The spec's ceiling for the delivered file (api-v1.md, target_lufs).
export const TRUE_PEAK_LIMIT_DB = -1;
// Within this of the target the result is kept; the spec allows 1 LU.
export const LOUDNESS_TOLERANCE_LU = 0.5;
const FIRST_CEILING_DB = -2;
// alimiter's lowest limit (0.0625).
const LOWEST_CEILING_DB = -24;
// Most peak reduction asked of the limiter. Past it speech gains little loudness and sounds
// crushed: targets above about -12 LUFS then land below target (peaks win over loudness).
const MAX_LIMITING_DB = 12;
// Below ebur128's absolute gate there is nothing to normalise (silence): gain would only raise hiss.
const SILENCE_LUFS = -70;

// framelog=verbose moves the per-frame lines below the default log level: only the summary prints.
export const EBUR128_FILTER = 'ebur128=peak=true:framelog=verbose';

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
export function loudnessFilter(plan: LoudnessPlan, measured: LoudnessMeasurement): string {
  const volume = `volume=${plan.gainDb.toFixed(2)}dB`;
  if (measured.truePeakDb + plan.gainDb <= plan.ceilingDb) return volume;
  const limit = (10 ** (plan.ceilingDb / 20)).toFixed(4);
  return `${volume},alimiter=limit=${limit}:level=false:latency=true`;
}

// After checking the encoded file: the next plan, or null when it meets the target and the limit.
// Limiting lowers loudness and encoders overshoot peaks, so gain and ceiling are corrected from
// what was delivered.
export function nextLoudnessPlan(
  plan: LoudnessPlan,
  measured: LoudnessMeasurement,
  delivered: LoudnessMeasurement,
  targetLufs: number,
): LoudnessPlan | null {
  const overshootDb = delivered.truePeakDb - TRUE_PEAK_LIMIT_DB;
  const missLu = targetLufs - delivered.integratedLufs;
  if (overshootDb <= 0 && Math.abs(missLu) <= LOUDNESS_TOLERANCE_LU) return null;
  const peakBeforeEncoding = Math.min(plan.ceilingDb, measured.truePeakDb + plan.gainDb);
  const ceilingDb = overshootDb > 0 ? Math.max(LOWEST_CEILING_DB, round(peakBeforeEncoding - overshootDb - 0.3)) : plan.ceilingDb;
  const gainDb = Math.abs(missLu) > LOUDNESS_TOLERANCE_LU ? cappedGain(plan.gainDb + missLu, ceilingDb, measured) : plan.gainDb;
  // Nothing left to change: keep what was delivered.
  return gainDb === plan.gainDb && ceilingDb === plan.ceilingDb ? null : { gainDb, ceilingDb };
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
