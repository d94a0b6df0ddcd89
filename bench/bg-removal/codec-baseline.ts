import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { OutputCodec } from '@vj/contracts';
import { probeMedia, ProcessRunner } from '../../apps/render-worker/src/media';
import { userFileInput } from '../../apps/render-worker/src/media/input-fence';
import { MAX_MATTING_PICTURE } from '../../apps/render-worker/src/matting/frame-geometry';
import { HELD_INPUT, heldFilters, QUIET, h264Outputs, proresOutput, vp9Output, type EncodePlan, type MatteFiles } from '../../apps/render-worker/src/matting/matting-args';
import type { Segmenter } from '../../apps/render-worker/src/matting/matting-model';
import { mattingPlan } from '../../apps/render-worker/src/matting/matting-plan';
import { DEFAULT_MAX_RESULT_BYTES } from '../../apps/render-worker/src/matting/remove-background';

// The least a background-removal job can do: one ffmpeg that decodes the input and encodes it with
// the job's encoders and an opaque alpha (VP9 or ProRes 4444 with alpha, RGBA PNGs, or the H.264 picture and a flat matte),
// with no model, no matte work and nothing through this process. A job's time over this is what
// matting costs: the model-size copy, the model, the smoothing and refinement, handing the pictures
// through the worker and encoding a real alpha plane.
export async function codecBaseline(inputPath: string, codec: OutputCodec, refine: boolean, segmenters: readonly Segmenter[], workDir: string): Promise<{ frames: number }> {
  await mkdir(workDir, { recursive: true });
  const runner = new ProcessRunner();
  const probe = await probeMedia(runner, { ffprobePath: 'ffprobe', inputPath, timeoutMs: 60_000 });
  const video = probe.video;
  if (!video) throw new Error(`${inputPath} has no video stream`);
  const files = filesFor(codec, workDir);
  const plan = mattingPlan(probe, video, { inputPath, maxSeconds: 3600, refine, segmenters, tracking: null, files, maxFileBytes: DEFAULT_MAX_RESULT_BYTES });
  const storedSize = { width: video.width, height: video.height };
  const encode: EncodePlan = {
    inputPath,
    storedSize,
    geometry: plan.geometry,
    pictures: 'file',
    maxSeconds: 3600,
    frameRate: video.frameRate ?? '25',
    fps: plan.fps,
    audio: probe.audio,
    colour: video,
    alpha: plan.alpha,
    files,
    maxFileBytes: DEFAULT_MAX_RESULT_BYTES,
  };
  const picture = `[0:V:0]${heldFilters(storedSize, plan.geometry).join(',')},format=yuva420p`;
  const sound = probe.audio ? ['-map', '0:a:0'] : [];
  const single = (output: string[]) => ['-filter_complex', `${picture}[out]`, '-map', '[out]', ...sound, ...output];
  const args =
    files.codec === 'vp9'
      ? single(vp9Output(encode, files.webmPath))
      : files.codec === 'prores'
        ? single(proresOutput(encode, files.movPath))
        : files.codec === 'png_sequence'
          ? // The PNGs go to a file: the job's ZIP, written as they come, costs a copy this does not.
            ['-filter_complex', `${picture},format=rgba[out]`, '-map', '[out]', '-c:v', 'png', '-f', 'image2pipe', '-y', join(workDir, 'baseline.png-stream'), ...(probe.audio ? [...sound, '-c:a', 'pcm_s24le', '-f', 'wav', '-y', files.audioPath] : [])]
          : ['-filter_complex', `${picture},split=2[p][m];[p]format=yuv420p[picture];[m]alphaextract,format=yuv420p[matte]`, '-map', '[picture]', ...sound, ...h264Outputs(encode, files, '[matte]')];
  await runner.run({ file: 'ffmpeg', args: [...QUIET, ...HELD_INPUT, ...userFileInput(inputPath, MAX_MATTING_PICTURE), ...args] }, { timeoutMs: 30 * 60_000 });
  return { frames: Math.round((probe.durationSeconds ?? 0) * plan.fps) };
}

function filesFor(codec: OutputCodec, workDir: string): Exclude<MatteFiles, { codec: 'composite' }> {
  switch (codec) {
    case 'vp9':
      return { codec, webmPath: join(workDir, 'baseline.webm') };
    case 'prores':
      return { codec, movPath: join(workDir, 'baseline.mov') };
    case 'png_sequence':
      return { codec, audioPath: join(workDir, 'baseline.wav') };
    case 'h264':
      return { codec, rgbPath: join(workDir, 'baseline-rgb.mp4'), mattePath: join(workDir, 'baseline-matte.mp4') };
  }
}
