import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Segmenter } from '../../apps/render-worker/src/matting/matting-model';
import type { SourceName } from './clip-spec';
import { readFrames } from './ffmpeg-io';
import { pipelineMatte, type VideoFile } from './pipeline-matte';
import type { Size } from './walk-path';

const run = promisify(execFile);

// A webcam clip and its reference matte: the pipeline's own on every whole frame with refinement (no
// tracking), checked by eye on green. Its person is what the synthetic clips paste into rooms.
export interface SourcePerson {
  video: VideoFile;
  reference: Uint8Array[];
  // The reference, as a raw gray file ffmpeg can scale.
  referencePath: string;
}

// The part of a 640x480 webcam frame the people stay in (their reference's foreground spans columns
// 124 to 471 and starts at row 28): a tight box, so that a person leaving by an edge is soon gone,
// and a height share means the person's height.
const PERSON_BOX = { x: 112, y: 24, width: 376, height: 456 };

export async function sourcePerson(name: SourceName, media: string, segmenters: readonly Segmenter[], dir: string): Promise<SourcePerson> {
  const path = join(media, `${name}.mkv`);
  const video: VideoFile = { name, path, ...(await probeSize(path)) };
  const reference = await pipelineMatte(video, segmenters, join(dir, `${name}-reference`), { refine: true, tracking: false });
  const referencePath = join(dir, `${name}-reference.gray`);
  writeFileSync(referencePath, Buffer.concat(reference));
  return { video, reference, referencePath };
}

// The person cut out at `height` pixels (and the width that keeps their shape): every source frame's
// picture (rgb24) and reference alpha, both scaled by ffmpeg's default (bicubic) scaler.
export interface CutOut extends Size {
  rgb: Uint8Array[];
  alpha: Uint8Array[];
}

export async function cutOut({ video, referencePath }: SourcePerson, height: number): Promise<CutOut> {
  const width = Math.round((PERSON_BOX.width * height) / PERSON_BOX.height / 2) * 2;
  const { x, y, width: boxWidth, height: boxHeight } = PERSON_BOX;
  const filter = `crop=${boxWidth}:${boxHeight}:${x}:${y},scale=${width}:${height}`;
  const rgb = await readFrames(['-i', video.path, '-vf', filter, '-pix_fmt', 'rgb24'], width * height * 3);
  const alpha = await readFrames(['-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${video.width}x${video.height}`, '-i', referencePath, '-vf', filter, '-pix_fmt', 'gray'], width * height);
  if (rgb.length !== alpha.length) throw new Error(`${video.name}: ${rgb.length} pictures for ${alpha.length} reference mattes`);
  return { width, height, rgb, alpha };
}

async function probeSize(path: string): Promise<Size> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', path]);
  const [width, height] = stdout.trim().split(',').map(Number);
  return { width: width!, height: height! };
}
