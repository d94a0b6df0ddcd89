import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { OutputCodec } from '@vj/contracts';
import { probeMedia, ProcessRunner } from '../../apps/render-worker/src/media';
import { writeFrame } from '../../apps/render-worker/src/matting/frame-stream';
import type { MatteFiles } from '../../apps/render-worker/src/matting/matting-args';
import type { Segmenter } from '../../apps/render-worker/src/matting/matting-model';
import { mattingPlan } from '../../apps/render-worker/src/matting/matting-plan';

// The same ffmpeg decode and encode a background-removal job runs (the encoder decodes the picture
// and reads an alpha frame per picture on stdin), with no inference and no matte work: every alpha
// frame is opaque. A job's time over this is what matting costs: the model-size decode, the model,
// the smoothing and refinement, and encoding a real alpha plane.
export async function codecBaseline(inputPath: string, codec: OutputCodec, refine: boolean, segmenters: readonly Segmenter[], workDir: string): Promise<{ frames: number }> {
  await mkdir(workDir, { recursive: true });
  const runner = new ProcessRunner();
  const probe = await probeMedia(runner, { ffprobePath: 'ffprobe', inputPath, timeoutMs: 60_000 });
  if (!probe.video) throw new Error(`${inputPath} has no video stream`);
  const files: MatteFiles =
    codec === 'vp9' ? { codec, webmPath: join(workDir, 'baseline.webm') } : { codec, rgbPath: join(workDir, 'baseline-rgb.mp4'), mattePath: join(workDir, 'baseline-matte.mp4') };
  const plan = mattingPlan(probe, probe.video, { inputPath, maxSeconds: 3600, refine, segmenters, tracking: null, files });
  const frames = Math.round((probe.durationSeconds ?? 0) * plan.fps);
  const opaque = Buffer.alloc(plan.alpha.width * plan.alpha.height, 255);
  const alpha = new PassThrough({ highWaterMark: opaque.length });
  const encoding = runner.run({ file: 'ffmpeg', args: plan.encodeArgs }, { timeoutMs: 30 * 60_000, stdin: alpha });
  const signal = new AbortController().signal;
  for (let i = 0; i < frames; i++) await writeFrame(alpha, opaque, signal);
  alpha.end();
  await encoding;
  return { frames };
}
