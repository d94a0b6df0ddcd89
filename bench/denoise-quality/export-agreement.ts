import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLEAN_AUDIO_DEFAULTS } from '@vj/contracts';
import { cleanAudioVideo, type CleanAudioVideoRequest, type CleanedVideo } from '../../apps/render-worker/src/media/clean-audio-video';
import { ProcessRunner } from '../../apps/render-worker/src/media/process-runner';
import { siSdr } from '../../apps/render-worker/src/media/si-sdr';
import { decodePcm, FFMPEG_PATH, FFPROBE_PATH } from '../../apps/render-worker/src/media/testing/media-tools';
import { bestLag, mixAtSnr, toBytes } from '../../apps/render-worker/src/media/testing/pcm';
import { runBench, stringArg } from '../support/bench-stack';
import { noiseSet, noiseWavArgs } from './noises';

// bench/denoise-quality/export-agreement: exports of clean audio (decision 0093) against whole jobs.
// Each clip of ../shared/media/audio mixed with each noise at 5 dB SNR is put in a small H.264/AAC video
// and cleaned by the job's code (cleanAudioVideo) at the default strength, keeping its stems; then, at
// each other strength, exported from those stems and cleaned whole again. Prints SI-SDR against the
// clean speech of the whole job and of the export, their difference (target: within 0.5 dB), and the
// time of each. Usage: npm run bench:clean-audio-export [-- --noises white,pink --strengths 0.3,1]

const AUDIO = join(__dirname, '..', '..', '..', 'shared', 'media', 'audio');
const CLIPS = ['0870', '0880', '0890'];
const SNR_DB = 5;
const RATE = 48_000;
// The output is aligned by design; the codec's priming is looked for within this.
const MAX_LAG = 4000;

const speechFile = (clip: string): string => join(AUDIO, `sense_and_sensibility_01_austen_64kb-${clip}.wav`);

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = process.hrtime.bigint();
  const value = await work();
  return { value, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

async function main(): Promise<void> {
  if (!existsSync(AUDIO)) {
    console.log(`bench:clean-audio-export skipped: ${AUDIO} is absent (the real test media live outside the repo)`);
    return;
  }
  const strengths = stringArg('--strengths', '0.3,0.6,1').split(',').map(Number);
  const wanted = stringArg('--noises', 'white,pink,hum-50,rumble,fan').split(',');
  const specs = noiseSet({ audioDir: AUDIO, speechFiles: CLIPS.map(speechFile) }).filter((spec) => wanted.includes(spec.name));
  const work = mkdtempSync(join(tmpdir(), 'vj-bench-export-'));
  const runner = new ProcessRunner();
  let jobs = 0;
  const clean = (inputPath: string, strength: number, extra: Partial<CleanAudioVideoRequest> = {}): Promise<CleanedVideo> =>
    cleanAudioVideo({
      inputPath,
      workDir: join(work, `job-${++jobs}`),
      options: { ...CLEAN_AUDIO_DEFAULTS, strength },
      timeoutMs: 120_000,
      ffmpegPath: FFMPEG_PATH,
      ffprobePath: FFPROBE_PATH,
      ...extra,
    });
  const score = async (path: string, speech: Int16Array): Promise<number> => {
    const output = await decodePcm(path);
    const lag = Math.max(0, bestLag(output, speech, MAX_LAG));
    const aligned = output.subarray(lag, lag + speech.length);
    return siSdr(aligned, speech.subarray(0, aligned.length));
  };
  const rows: string[] = [];
  const times = { whole: 0, exported: 0 };
  try {
    for (const spec of specs) {
      const diffs: number[] = [];
      const sums = new Map<number, { whole: number; exported: number }>();
      for (const clip of CLIPS) {
        const speech = await decodePcm(speechFile(clip));
        const noisePath = join(work, `${spec.name}-${clip}.wav`);
        await runner.run({ file: FFMPEG_PATH, args: noiseWavArgs(spec, speechFile(clip), noisePath) }, { timeoutMs: 60_000 });
        const noisy = mixAtSnr(speech, await decodePcm(noisePath), SNR_DB);
        const pcmPath = join(work, 'noisy.s16le');
        writeFileSync(pcmPath, toBytes(noisy));
        const video = join(work, `${spec.name}-${clip}.mp4`);
        const seconds = String(noisy.length / RATE);
        await runner.run(
          {
            file: FFMPEG_PATH,
            args: ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=160x120:rate=10:duration=${seconds}`, '-f', 's16le', '-ar', String(RATE), '-ac', '1', '-i', pcmPath,
              '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '192k', '-shortest', video],
          },
          { timeoutMs: 60_000 },
        );
        const kept = await clean(video, CLEAN_AUDIO_DEFAULTS.strength, { keepStemsAt: join(work, `stems-${jobs + 1}.flac`) });
        if (!kept.stems) throw new Error('the job kept no stems');
        for (const strength of strengths) {
          const whole = await timed(() => clean(video, strength));
          const exported = await timed(() => clean(kept.outputPath, strength, { fromStems: kept.stems }));
          times.whole += whole.seconds;
          times.exported += exported.seconds;
          const [a, b] = [await score(whole.value.outputPath, speech), await score(exported.value.outputPath, speech)];
          diffs.push(b - a);
          const sum = sums.get(strength) ?? { whole: 0, exported: 0 };
          sums.set(strength, { whole: sum.whole + a / CLIPS.length, exported: sum.exported + b / CLIPS.length });
        }
      }
      for (const [strength, sum] of sums) {
        rows.push(`${spec.name.padEnd(10)} ${strength.toFixed(2).padStart(8)} ${sum.whole.toFixed(2).padStart(10)} ${sum.exported.toFixed(2).padStart(10)} ${(sum.exported - sum.whole).toFixed(2).padStart(10)}`);
      }
      rows.push(`${''.padEnd(10)} largest |export - whole| over ${CLIPS.length} clips x ${strengths.length} strengths: ${Math.max(...diffs.map(Math.abs)).toFixed(2)} dB`);
    }
    console.log(`\nclean-audio exports against whole jobs: ${CLIPS.length} clips x ${specs.length} noises at ${SNR_DB} dB SNR, SI-SDR (dB) against the clean speech, mean of the clips`);
    console.log(`noise      strength      whole     export       diff`);
    for (const row of rows) console.log(row);
    console.log(`time, all runs: whole jobs ${times.whole.toFixed(1)} s, exports ${times.exported.toFixed(1)} s (${(times.exported / times.whole).toFixed(2)} of the whole jobs')`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

runBench(main);
