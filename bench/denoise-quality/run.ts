import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CLEAN_AUDIO_DEFAULTS } from '@vj/contracts';
import { ProcessRunner } from '../../apps/render-worker/src/media/process-runner';
import { siSdr } from '../../apps/render-worker/src/media/si-sdr';
import { decodePcm, FFMPEG_PATH } from '../../apps/render-worker/src/media/testing/media-tools';
import { bestLag, mixAtSnr, peakScaled } from '../../apps/render-worker/src/media/testing/pcm';
import { runBench, stringArg } from '../support/bench-stack';
import { impulseResponseArgs, noiseSet, noiseWavArgs, reverberantArgs, type NoiseSpec } from './noises';
import { qualityTable, type CaseScore, type CleanScore, type StageScores } from './quality-table';
import { JobStages } from './stages';

// bench/denoise-quality: the clean-audio denoiser's development noise set. The LibriVox clips of
// ../shared/media/audio (16 kHz, resampled to 48 kHz) mixed with generated noises (noises.ts) at 0, 5
// and 10 dB SNR, and put in a reverberant room, each input run through the job's stages (stages.ts):
// RNNoise at the default strength, at strength 1, and the whole chain (denoiser, then loudness).
// Prints SI-SDR against the clean speech: the noisy input's, and each stage's gain over it, per noise
// and SNR, averaged over the clips; the clean speech through each stage (target >= 25 dB); the lag of
// the output; and the cost in realtime. Noise WAVs and results.json go to reports/denoise-quality/<label>.
// Usage: npm run bench:denoise-quality [-- --snr 0,5 --noises white,babble,reverb --clips 0870 --verbose --label before]
//   (--verbose: every clip's row under each noise's mean)

const AUDIO = join(__dirname, '..', '..', '..', 'shared', 'media', 'audio');
const REPORTS = join(__dirname, '..', '..', 'reports', 'denoise-quality');
const CLIPS = ['0870', '0880', '0890'];
// decodePcm's rate.
const SAMPLE_RATE = 48_000;
const SNRS = [0, 5, 10];
// The reverberant room's row: the speech convolved with a room's response, nothing added.
const REVERB = 'reverb';
const RT60_SECONDS = 0.5;
// The output's alignment is checked over ±this many samples.
const MAX_LAG = 2000;
const FFMPEG_TIMEOUT_MS = 60_000;

const speechFile = (clip: string): string => `sense_and_sensibility_01_austen_64kb-${clip}.wav`;
const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

interface Lag {
  clip: string;
  denoised: number;
  chain: number;
}

// A comma-separated option's items, each one of `known`; all of them when it is not given.
function listArg(name: string, known: readonly string[]): string[] {
  const given = stringArg(name, '');
  if (given === '') return [...known];
  const items = given.split(',');
  for (const item of items) if (!known.includes(item)) throw new Error(`${name} ${item}: one of ${known.join(', ')}`);
  return items;
}

// Every stage's output for one input, scored against the clean speech.
async function scoreInput(stages: JobStages, input: Int16Array, clean: Int16Array): Promise<StageScores> {
  const { denoised, chain } = await stages.chain(input);
  const full = await stages.denoise(input, 1);
  return { noisy: siSdr(input, clean), denoised: siSdr(denoised, clean), full: siSdr(full, clean), chain: siSdr(chain, clean) };
}

// The noise WAVs of this run (babble's one per clip), made once; the path of each by noise and clip.
async function makeNoises(specs: readonly NoiseSpec[], clips: readonly string[], dir: string): Promise<(spec: NoiseSpec, clip: string) => string> {
  const runner = new ProcessRunner();
  const pathOf = (spec: NoiseSpec, clip: string): string => join(dir, spec.perClip ? `${spec.name}-${clip}.wav` : `${spec.name}.wav`);
  for (const spec of specs) {
    for (const clip of spec.perClip ? clips : [clips[0]]) {
      await runner.run({ file: FFMPEG_PATH, args: noiseWavArgs(spec, speechFile(clip), pathOf(spec, clip)) }, { timeoutMs: FFMPEG_TIMEOUT_MS });
    }
  }
  return pathOf;
}

// Each clip in the room, by clip; the impulse response is kept beside them.
async function makeRooms(clips: readonly string[], dir: string): Promise<(clip: string) => string> {
  const runner = new ProcessRunner();
  const impulse = join(dir, `room-rt60-${RT60_SECONDS}s-impulse.wav`);
  const pathOf = (clip: string): string => join(dir, `${REVERB}-${clip}.wav`);
  await runner.run({ file: FFMPEG_PATH, args: impulseResponseArgs(RT60_SECONDS, impulse) }, { timeoutMs: FFMPEG_TIMEOUT_MS });
  for (const clip of clips) {
    await runner.run({ file: FFMPEG_PATH, args: reverberantArgs(join(AUDIO, speechFile(clip)), impulse, pathOf(clip)) }, { timeoutMs: FFMPEG_TIMEOUT_MS });
  }
  return pathOf;
}

async function main(): Promise<void> {
  if (!existsSync(AUDIO)) {
    console.log(`bench:denoise-quality skipped: ${AUDIO} is absent (the real test media live outside the repo)`);
    return;
  }
  const started = Date.now();
  const allNoises = noiseSet({ audioDir: AUDIO, speechFiles: CLIPS.map(speechFile) });
  const snrs = listArg('--snr', SNRS.map(String)).map(Number);
  const clips = listArg('--clips', CLIPS);
  const names = listArg('--noises', [...allNoises.map((spec) => spec.name), REVERB]);
  const verbose = process.argv.includes('--verbose');
  const specs = allNoises.filter((spec) => names.includes(spec.name));
  const out = join(REPORTS, stringArg('--label', 'latest'));
  // Files of an earlier run with this label would be mistaken for this one's.
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, 'noises'), { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'vj-bench-denoise-quality-'));
  try {
    const noisePath = await makeNoises(specs, clips, join(out, 'noises'));
    const roomPath = names.includes(REVERB) ? await makeRooms(clips, join(out, 'noises')) : null;
    const stages = new JobStages(work);
    const cases: CaseScore[] = [];
    const clean: CleanScore[] = [];
    const lags: Lag[] = [];
    let speechSeconds = 0;
    for (const clip of clips) {
      const clipStarted = Date.now();
      const speech = await decodePcm(join(AUDIO, speechFile(clip)));
      speechSeconds += speech.length / SAMPLE_RATE;
      // The clean speech through the stages: what they take from it, and whether their output lines up.
      const { denoised, chain } = await stages.chain(speech);
      clean.push({ clip, denoised: siSdr(denoised, speech), full: siSdr(await stages.denoise(speech, 1), speech), chain: siSdr(chain, speech) });
      lags.push({ clip, denoised: bestLag(denoised, speech, MAX_LAG), chain: bestLag(chain, speech, MAX_LAG) });
      for (const spec of specs) {
        const noise = await decodePcm(noisePath(spec, clip));
        for (const snrDb of snrs) cases.push({ noise: spec.name, snrDb, clip, ...(await scoreInput(stages, mixAtSnr(speech, noise, snrDb), speech)) });
      }
      if (roomPath) {
        const room = peakScaled((await decodePcm(roomPath(clip))).subarray(0, speech.length));
        cases.push({ noise: REVERB, snrDb: null, clip, ...(await scoreInput(stages, room, speech)) });
      }
      console.log(`  ${clip} (${(speech.length / SAMPLE_RATE).toFixed(1)} s): ${specs.length * snrs.length + (roomPath ? 1 : 0)} inputs in ${((Date.now() - clipStarted) / 1000).toFixed(0)} s`);
    }

    const { strength } = CLEAN_AUDIO_DEFAULTS;
    const { audioSeconds, denoiseSeconds, loudnessSeconds } = stages.cost;
    const realtime = { denoiser: audioSeconds / denoiseSeconds, chain: audioSeconds / (denoiseSeconds + loudnessSeconds) };
    console.log(
      `\ndenoise quality: ${plural(clips.length, 'clip')} (${speechSeconds.toFixed(1)} s of speech), ${plural(specs.length, 'noise')} at ${snrs.join('/')} dB SNR` +
        `${roomPath ? `, a room (RT60 ${RT60_SECONDS} s)` : ''}; SI-SDR in dB against the clean speech, mean of the clips`,
    );
    for (const line of qualityTable(cases, clean, { snrs, verbose, strength })) console.log(line);
    console.log('clean rows: the clean clip through each stage, SI-SDR of the output against the input (target >= 25 dB)');
    const lagsOf = (stage: 'denoised' | 'chain'): string => lags.map((lag) => lag[stage]).join(' ');
    console.log(`lag, clean speech, best of ±${MAX_LAG} samples (${clips.join(' ')}): RNNoise ${strength} ${lagsOf('denoised')}, whole chain ${lagsOf('chain')}`);
    console.log(
      `cost over ${cases.length + clean.length} inputs (${audioSeconds.toFixed(0)} s of audio), one process at a time: ` +
        `RNNoise ${strength} ${realtime.denoiser.toFixed(1)}x realtime, whole chain ${realtime.chain.toFixed(1)}x realtime`,
    );
    const wallSeconds = (Date.now() - started) / 1000;
    const results = { measuredAt: new Date().toISOString(), strength, targetLufs: CLEAN_AUDIO_DEFAULTS.target_lufs, rt60Seconds: RT60_SECONDS, clips, snrs, noises: names, cases, clean, lags, cost: stages.cost, realtime, wallSeconds };
    writeFileSync(join(out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    console.log(`noise WAVs and results.json in ${relative(process.cwd(), out)}`);
    console.log(`\n${wallSeconds.toFixed(0)} s`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

runBench(main);
