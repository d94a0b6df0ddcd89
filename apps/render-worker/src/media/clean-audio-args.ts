import { ownInput, userFileInput } from './input-fence';
import { OFFSET_RATE, OFFSET_SECONDS } from './audio-offset';
import { EBUR128_FILTER } from './loudness';
import { levelsFilter } from './noise-floor';
import type { OutputFormat } from './output-format';

// ffmpeg argument lists for the clean-audio job, built from probe data and options only. The user's
// file is always opened fenced (input-fence.ts); the picture is never decoded, so the decoders get
// the limit of any decoder here.

export const PCM_SAMPLE_RATE = 48_000;
export const PCM_BYTES_PER_SECOND = PCM_SAMPLE_RATE * 2;
// The denoiser's format (RNNoise works on 48 kHz mono) and the job's output format.
const PCM_FORMAT = ['-f', 's16le', '-ar', String(PCM_SAMPLE_RATE), '-ac', '1'];
const QUIET = ['-hide_banner', '-nostdin', '-v', 'error'];

// The first audio stream as raw PCM on stdout. The first sample is placed at the file's time 0
// (silence is inserted if the audio starts late) and gaps are filled, so the raw file lines up
// with the copied picture. Decoding stops a second past the limit: metadata can lie. The same
// decoding is measured as it is (measuringFilter, a second output): the source's loudness, which
// normalize_loudness false aims at, and its figures for the quality report, at no second decode; and
// its opening as samples for the report's audio offset (`offsetSamplesPath`). Not quiet: ebur128
// prints its summary at info level.
export function decodeAudioArgs(inputPath: string, maxAudioSeconds: number, offsetSamplesPath: string): string[] {
  const limit = ['-t', String(maxAudioSeconds + 1)];
  return [
    '-hide_banner', '-nostdin', '-nostats', '-y',
    ...userFileInput(inputPath),
    '-map', '0:a:0', ...limit,
    '-af', 'aresample=async=1:first_pts=0',
    ...PCM_FORMAT,
    '-c:a', 'pcm_s16le',
    'pipe:1',
    '-map', '0:a:0', ...limit, '-af', measuringFilter(INPUT_LEVELS), '-f', 'null', '-',
    ...offsetSamplesOutput(offsetSamplesPath),
  ];
}

// A further output of a run that decodes an audio stream: its first OFFSET_SECONDS, placed from time
// 0 as the denoiser's decode places it, as mono float samples at OFFSET_RATE, for the quality
// report's audio offset (audio-offset.ts).
function offsetSamplesOutput(samplesPath: string): string[] {
  return ['-map', '0:a:0', '-t', String(OFFSET_SECONDS), '-af', 'aresample=async=1:first_pts=0', '-ar', String(OFFSET_RATE), '-ac', '1', '-c:a', 'pcm_f32le', '-f', 'f32le', samplesPath];
}

// Where the measuring runs write the levels of the user's audio and of the delivered audio, in the
// job's folder (the run's cwd: noise-floor.ts).
export const INPUT_LEVELS = 'input-levels.txt';
export const OUTPUT_LEVELS = 'output-levels.txt';

// The denoiser's stems (rnnoise-filter.mjs --stems: 4 channels of s16le) kept as one lossless FLAC for
// exports (decision 0093).
const STEMS_FORMAT = ['-f', 's16le', '-ar', String(PCM_SAMPLE_RATE), '-ac', '4'];
export function keepStemsArgs(stemsRawPath: string, flacPath: string): string[] {
  return [...QUIET, '-y', ...STEMS_FORMAT, ...ownInput(stemsRawPath), '-map', '0:a', '-c:a', 'flac', '-compression_level', '0', '-f', 'flac', flacPath];
}

// Kept stems back as raw 4-channel s16le on stdout, for remix-stems.mjs.
export function decodeStemsArgs(flacPath: string): string[] {
  return [...QUIET, ...ownInput(flacPath), '-map', '0:a:0', ...STEMS_FORMAT, '-c:a', 'pcm_s16le', 'pipe:1'];
}

function rawAudioInput(rawPath: string): string[] {
  return [...PCM_FORMAT, ...ownInput(rawPath)];
}

// ebur128 prints its summary at info level, so this one is not quiet. `input` is tapInput() for our
// mux's audio; the levels for the noise floor go to `levelsFile`, its opening as samples for the
// report's audio offset to `offsetSamplesPath`.
export function measureLoudnessArgs(input: readonly string[], levelsFile: string, offsetSamplesPath: string): string[] {
  // -y: each encode's measuring writes over the last one's samples.
  return ['-hide_banner', '-nostdin', '-nostats', '-y', ...input, '-map', '0:a:0', '-af', measuringFilter(levelsFile), '-f', 'null', '-', ...offsetSamplesOutput(offsetSamplesPath)];
}

function measuringFilter(levelsFile: string): string {
  return `${EBUR128_FILTER},${levelsFilter(levelsFile)}`;
}

export interface MuxPlan {
  inputPath: string;
  rawAudioPath: string;
  // What the denoiser removed under 300 Hz (low-band.ts), added back to the raw audio with this weight
  // before the audio filter; null adds nothing.
  lowBand: { path: string; weight: number } | null;
  outputPath: string;
  format: OutputFormat;
  // null: the audio is left as it is (silence).
  audioFilter: string | null;
  // Carried over from the original audio stream.
  language: string | null;
  // Where the mux writes the SHA-256 of the source's picture packets as it reads them, and of those it
  // writes into the output (ffmpeg's streamhash format): the quality report's proof of a bit-for-bit copy.
  pictureHashes: { source: string; written: string };
}

// The picture is copied bit for bit (`V` skips cover art); the cleaned audio replaces every audio
// stream; subtitles and data streams are left out by mapping only these two. The tee muxer also hashes
// the picture packets the file gets, and with `tap` streams the encoded audio alone to stdout
// (format.audioTap), the very packets the file gets, so the delivered loudness is measured (tapInput)
// while muxing, not by reading the file again. A second output hashes the source's picture packets.
export function muxArgs(plan: MuxPlan, tap = false): string[] {
  const { muxer, muxerOptions, audioTap } = plan.format;
  const slaves = [
    teeSlave({ f: muxer, ...muxerOptions }, plan.outputPath),
    teeSlave({ select: 'v', f: 'streamhash', hash: 'sha256' }, plan.pictureHashes.written),
    ...(tap ? [teeSlave({ select: 'a', f: audioTap.muxer }, 'pipe:1')] : []),
  ];
  return [
    ...QUIET,
    '-y',
    ...userFileInput(plan.inputPath),
    ...rawAudioInput(plan.rawAudioPath),
    ...(plan.lowBand ? rawAudioInput(plan.lowBand.path) : []),
    '-map', '0:V:0',
    '-map', plan.lowBand ? MIXED_AUDIO : '1:a:0',
    '-c:v', 'copy',
    ...audioFiltering(plan),
    '-ar', String(PCM_SAMPLE_RATE),
    '-ac', '1',
    ...plan.format.audioCodecArgs,
    '-map_metadata', '0',
    ...(plan.language ? ['-metadata:s:a:0', `language=${plan.language}`] : []),
    '-f', 'tee', slaves.join('|'),
    '-map', '0:V:0', '-c:v', 'copy', '-f', 'streamhash', '-hash', 'sha256', plan.pictureHashes.source,
  ];
}

// The raw audio (input 1) through the audio filter, with the low band (input 2) mixed in first where
// there is one: amix without normalising is a plain weighted sum.
const MIXED_AUDIO = '[audio]';
function audioFiltering(plan: MuxPlan): string[] {
  if (!plan.lowBand) return plan.audioFilter ? ['-af', plan.audioFilter] : [];
  const mixed = `[1:a][2:a]amix=inputs=2:weights=1 ${plan.lowBand.weight}:normalize=0`;
  return ['-filter_complex', `${mixed}${plan.audioFilter ? `,${plan.audioFilter}` : ''}${MIXED_AUDIO}`];
}

// The tap muxArgs streams, as a measuring ffmpeg's input.
export function tapInput(format: OutputFormat): string[] {
  return ['-f', format.audioTap.demuxer, ...ownInput('pipe:0')];
}

// One of the tee muxer's outputs: `[name=value:...]target`, its special characters escaped (our
// own paths, but a deployment's temporary folder may hold any).
function teeSlave(options: Record<string, string>, target: string): string {
  const listed = Object.entries(options).map(([name, value]) => `${name}=${value}`).join(':');
  return `[${listed}]${target.replace(/[\\'|]/g, (character) => `\\${character}`)}`;
}
