import { join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import type { OutputCodec } from '@vj/contracts';
import { probeMedia, ProcessRunner } from '../../apps/render-worker/src/media';
import { runFramePipeline } from '../../apps/render-worker/src/matting/frame-pipeline';
import type { MatteFiles } from '../../apps/render-worker/src/matting/matting-args';
import { mattingPlan } from '../../apps/render-worker/src/matting/matting-plan';

// The same ffmpeg decode and encode a background-removal job runs, through the same pipe and
// frame hand-off, with no inference and no matte work: every frame gets an opaque alpha plane.
// A job's time over this is what matting costs.
export async function codecBaseline(inputPath: string, codec: OutputCodec, workDir: string): Promise<{ frames: number }> {
  await mkdir(workDir, { recursive: true });
  const runner = new ProcessRunner();
  const probe = await probeMedia(runner, { ffprobePath: 'ffprobe', inputPath, timeoutMs: 60_000 });
  if (!probe.video) throw new Error(`${inputPath} has no video stream`);
  const files: MatteFiles =
    codec === 'vp9' ? { codec, webmPath: join(workDir, 'baseline.webm') } : { codec, rgbPath: join(workDir, 'baseline-rgb.mp4'), mattePath: join(workDir, 'baseline-matte.mp4') };
  const plan = mattingPlan(probe, probe.video, inputPath, 3600, files);
  const { frames } = await runFramePipeline({
    runner,
    ffmpegPath: 'ffmpeg',
    decodeArgs: plan.decodeArgs,
    encodeArgs: plan.encodeArgs,
    frameBytes: plan.yuvBytes,
    bufferBytes: plan.yuvaBytes,
    stage: { start: (frame) => void frame.fill(255, plan.yuvBytes, plan.yuvaBytes), finish: async () => undefined },
    timeoutMs: 30 * 60_000,
  });
  return { frames };
}
