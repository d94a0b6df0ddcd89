import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudioArgs } from '../../apps/render-worker/src/media/clean-audio-args';
import { DEFAULT_MAX_AUDIO_SECONDS } from '../../apps/render-worker/src/media/clean-audio-video';
import { denoiseCommand } from '../../apps/render-worker/src/media/denoise-command';
import { ProcessRunner } from '../../apps/render-worker/src/media/process-runner';

// The least work a clean-audio job can do on a file: copy its picture with ffmpeg, and decode and
// denoise its audio with the same commands and runner the job uses. A job's wall time over this
// is what everything else costs (probe, loudness passes, encoding, transfers, queueing).

export interface DenoiseBaselineOptions {
  strength?: number;
  ffmpegPath?: string;
  // Parent of the scratch folder (removed afterwards).
  workDir?: string;
  timeoutMs?: number;
}

export interface DenoiseBaseline {
  copySeconds: number;
  denoiseSeconds: number;
  wallSeconds: number;
}

export async function denoiseBaseline(inputPath: string, options: DenoiseBaselineOptions = {}): Promise<DenoiseBaseline> {
  const ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const runner = new ProcessRunner();
  const dir = await mkdtemp(join(options.workDir ?? tmpdir(), 'vj-denoise-baseline-'));
  try {
    // Matroska takes any of the job's video codecs.
    const copy = ['-hide_banner', '-nostdin', '-v', 'error', '-i', inputPath, '-map', '0:V:0', '-c', 'copy', '-f', 'matroska', join(dir, 'picture.mkv')];
    const copySeconds = await timed(() => runner.run({ file: ffmpegPath, args: copy }, { timeoutMs }));
    const denoiseSeconds = await timed(() =>
      runner.pipe(
        [
          // In the run's folder, as the job runs it: the decode writes its levels file beside it.
          { file: ffmpegPath, args: decodeAudioArgs(inputPath, DEFAULT_MAX_AUDIO_SECONDS, join(dir, 'offset-source.f32')), cwd: dir },
          denoiseCommand(process.execPath, options.strength ?? 0.874),
        ],
        { timeoutMs, stdout: createWriteStream(join(dir, 'denoised.s16le')) },
      ),
    );
    return { copySeconds, denoiseSeconds, wallSeconds: copySeconds + denoiseSeconds };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e9;
}
