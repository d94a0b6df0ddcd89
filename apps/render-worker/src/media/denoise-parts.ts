import { PCM_BYTES_PER_SECOND } from './clean-audio-args';

// RNNoise frames: 480 samples of s16le (10 ms at 48 kHz). Parts start on frame boundaries, so every
// part's frames fall where the single denoiser's would (and loudness-meter.mjs measures in them).
export const FRAME_BYTES = 960;
// A part's denoiser starts this much before the part and its output for it is dropped: the networks'
// recurrent states need it to settle on the audio, so the part's first samples are denoised as if
// the whole file had run through one denoiser (GTCRN's takes longer than 1 s to come within 40 dB
// SI-SDR of one run, denoise-in-parts.int-spec.ts). It also reads LOOKAHEAD_FRAMES past the part: each
// output frame is computed with the input up to 890 samples after it, run in blocks of 768 (GTCRN,
// gtcrn-stream.mjs), then two more frames (RNNoise's lag, then the spectral gain's window,
// rnnoise-filter.mjs): 2618 samples at most, under 6 frames, as in one run over the whole file.
export const DENOISE_PREROLL_SECONDS = 2;
const LOOKAHEAD_FRAMES = 6;
// Shorter parts gain less than starting one more process costs.
export const MIN_PART_SECONDS = 15;

export interface DenoisePart {
  // Bytes of the decoded PCM this part's denoiser reads: [inputStart, inputEnd).
  inputStart: number;
  inputEnd: number;
  // The first bytes of its output that belong to the previous part (the pre-roll): dropped.
  dropBytes: number;
  // Then the bytes of its output that are this part's, written to the denoised file at outputStart;
  // the rest (the next part's first frame, read only because RNNoise looks one frame ahead) is dropped.
  keepBytes: number;
  outputStart: number;
}

// Splits `totalBytes` of decoded PCM into at most `maxParts` parts of at least MIN_PART_SECONDS each,
// run by as many denoisers at once. One part is the whole file, with no pre-roll.
export function denoiseParts(totalBytes: number, maxParts: number): DenoisePart[] {
  const frames = Math.ceil(totalBytes / FRAME_BYTES);
  const minFrames = (MIN_PART_SECONDS * PCM_BYTES_PER_SECOND) / FRAME_BYTES;
  const count = Math.max(1, Math.min(Math.floor(maxParts), Math.floor(frames / minFrames)));
  const prerollBytes = DENOISE_PREROLL_SECONDS * PCM_BYTES_PER_SECOND;
  return Array.from({ length: count }, (_, i) => {
    const start = Math.floor((frames * i) / count) * FRAME_BYTES;
    const end = i === count - 1 ? totalBytes : Math.floor((frames * (i + 1)) / count) * FRAME_BYTES;
    const inputStart = Math.max(0, start - prerollBytes);
    return { inputStart, inputEnd: Math.min(totalBytes, end + LOOKAHEAD_FRAMES * FRAME_BYTES), dropBytes: start - inputStart, keepBytes: end - start, outputStart: start };
  });
}
