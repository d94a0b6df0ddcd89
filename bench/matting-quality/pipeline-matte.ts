import { rmSync } from 'node:fs';
import { BilinearMap } from '../../apps/render-worker/src/matting/bilinear';
import type { Segmenter } from '../../apps/render-worker/src/matting/matting-model';
import { removeBackground, type MattedFile, type RemoveBackgroundRequest } from '../../apps/render-worker/src/matting/remove-background';
import { readFrames } from './ffmpeg-io';
import { upscale } from './upscale';

export interface VideoFile {
  name: string;
  path: string;
  width: number;
  height: number;
}

export interface MatteSettings {
  refine: boolean;
  // Off, the model sees every whole frame: the plain per-frame model, with the pipeline's smoothing
  // and refinement.
  tracking: boolean;
  // The number in the whole clip of the video's first frame (a segment's), from 1.
  firstFrame?: number;
  // The background plate to begin from, and where to take what it learned (RemoveBackgroundRequest).
  plateSeed?: RemoveBackgroundRequest['plateSeed'];
  onPlate?: RemoveBackgroundRequest['onPlate'];
  plateSettings?: RemoveBackgroundRequest['plateSettings'];
  // The matte as the job delivers it in this codec, decoded from its file, instead of the alpha handed
  // to the encoder: what a user scores.
  delivered?: DeliveredCodec;
}

export type DeliveredCodec = 'vp9' | 'h264';

// The pipeline's full-size alpha of every frame, or with `delivered` as decoded from the job's file.
// With refinement the encoder gets it at full size; without, at the model's size, scaled up here
// bilinearly as the encoder does. `workDir` is removed afterwards.
export async function pipelineMatte(video: VideoFile, segmenters: readonly Segmenter[], workDir: string, settings: MatteSettings): Promise<Uint8Array[]> {
  const frames: Uint8Array[] = [];
  try {
    const matted = await removeBackground({
      inputPath: video.path,
      workDir,
      options: { output_codec: settings.delivered ?? 'h264', refine_foreground_edges: settings.refine },
      segmenters,
      maxSeconds: 3600,
      timeoutMs: 600_000,
      tracking: settings.tracking,
      ...(settings.firstFrame !== undefined && { firstFrame: settings.firstFrame }),
      ...(settings.plateSeed && { plateSeed: settings.plateSeed }),
      ...(settings.onPlate && { onPlate: settings.onPlate }),
      ...(settings.plateSettings && { plateSettings: settings.plateSettings }),
      // A delivered matte is read from the file: the frames handed to the encoder are not kept.
      ...(!settings.delivered && { onMatte: (index: number, alpha: Uint8Array) => (frames[index] = Uint8Array.from(alpha)) }),
    });
    if (settings.delivered) return await deliveredMatte(matted.files, settings.delivered, video.width * video.height);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  if (settings.refine) return frames;
  const model = segmenters.find((segmenter) => segmenter.spec.width * segmenter.spec.height === frames[0]!.length)!.spec;
  const map = new BilinearMap(model.width, model.height, video.width, video.height);
  return frames.map((alpha) => upscale(alpha, map, 1));
}

// Each frame's alpha as a user reads it from the job's files: VP9's alpha plane through libvpx (ffmpeg's
// own decoder drops it), the H.264 matte's luma.
async function deliveredMatte(files: readonly MattedFile[], codec: DeliveredCodec, pixels: number): Promise<Uint8Array[]> {
  const file = files.find(({ role }) => role === (codec === 'vp9' ? 'transparent' : 'matte'));
  if (!file) throw new Error(`the job delivered no ${codec} matte`);
  const decode = codec === 'vp9' ? ['-c:v', 'libvpx-vp9', '-i', file.path, '-vf', 'alphaextract'] : ['-i', file.path];
  // Every frame once, as the file holds it: a constant rate would repeat or drop frames on the WebM's
  // millisecond timestamps.
  return readFrames([...decode, '-fps_mode', 'passthrough', '-pix_fmt', 'gray'], pixels);
}
