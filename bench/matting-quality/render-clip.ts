import { join } from 'node:path';
import { cameraPath, worldSize } from './camera';
import { exposeAndGrain, grainRandom, shadeWall } from './camera-light';
import { frameCount, type ClipSpec, type FurnitureKind, type SourceName } from './clip-spec';
import { writeFrames } from './ffmpeg-io';
import { drawFurniture } from './furniture';
import type { PixelBox } from './matte-score';
import type { VideoFile } from './pipeline-matte';
import { roomPicture } from './room';
import { cutOut, type CutOut, type SourcePerson } from './source-person';
import { pingPong, positionAt, type Point, type Size } from './walk-path';

const SOURCE_FPS = 30;

export interface RenderedClip {
  spec: ClipSpec;
  video: VideoFile;
  // The exact alpha of every frame: the walkers' reference mattes where they were pasted, one over
  // another where they overlap.
  truth: Uint8Array[];
  // Each piece of furniture's box in every frame (null where out of view).
  furniture: { kind: FurnitureKind; boxes: (PixelBox | null)[] }[];
}

// The clip as an H.264 file (CRF 12 unless the clip says, near lossless, as a camera's upload) and its
// exact alpha.
export async function renderClip(spec: ClipSpec, sources: ReadonlyMap<SourceName, SourcePerson>, dir: string): Promise<RenderedClip> {
  const frame: Size = { width: spec.width, height: spec.height };
  const frames = frameCount(spec);
  const world = worldSize(spec.camera, frame);
  const camera = cameraPath(spec.camera, frames, spec.fps);
  const background = await roomPicture(world, spec.room.seed);
  const furniture = (spec.room.furniture ?? []).map((item, i) => {
    const box = drawFurniture(background, world, spec.height, item, 1000 * (spec.room.seed ?? 0) + i);
    return { kind: item.kind, boxes: camera.map((offset) => boxInFrame(box, offset, frame)) };
  });
  const walkers = await Promise.all(
    spec.walkers.map(async (walker) => {
      const person = await cutOut(sources.get(walker.source)!, Math.round((spec.height * walker.height) / 2) * 2);
      const restY = world.height - person.height - Math.round((walker.floor ?? 0) * spec.height);
      return { walker, person, at: (t: number) => positionAt(walker.path, person, world, restY, spec.seconds, t) };
    }),
  );
  const truth: Uint8Array[] = [];
  const light = spec.light;
  const random = grainRandom(spec.name);
  function* pictures(): Generator<Uint8Array> {
    for (let n = 0; n < frames; n++) {
      const t = n / spec.fps;
      const offset = camera[n]!;
      const rgb = windowOf(background, world, offset, frame);
      const placed = walkers.map(({ walker, person, at }) => {
        const position = at(t);
        const source = pingPong((walker.firstFrame ?? 0) + Math.round(t * SOURCE_FPS), person.rgb.length);
        return { person, source, at: { x: position.x - offset.x, y: position.y - offset.y } };
      });
      if (light?.shadow) {
        const silhouette = new Uint8Array(frame.width * frame.height);
        for (const { person, source, at } of placed) paste(null, silhouette, frame, person, source, at);
        shadeWall(rgb, frame, silhouette, light.shadow);
      }
      const alpha = new Uint8Array(frame.width * frame.height);
      for (const { person, source, at } of placed) paste(rgb, alpha, frame, person, source, at);
      if (light) exposeAndGrain(rgb, light, t, random);
      truth.push(alpha);
      yield rgb;
    }
  }
  const path = join(dir, `${spec.name}.mp4`);
  await writeFrames(
    ['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${frame.width}x${frame.height}`, '-r', String(spec.fps)],
    ['-c:v', 'libx264', '-crf', String(spec.crf ?? 12), '-preset', 'fast', '-pix_fmt', 'yuv420p', path],
    pictures(),
  );
  return { spec, video: { name: spec.name, path, ...frame }, truth, furniture };
}

// The part of the world picture the camera sees.
function windowOf(world: Uint8Array, worldSize: Size, offset: Point, frame: Size): Uint8Array {
  const rgb = new Uint8Array(frame.width * frame.height * 3);
  for (let y = 0; y < frame.height; y++) {
    const from = ((y + offset.y) * worldSize.width + offset.x) * 3;
    rgb.set(world.subarray(from, from + frame.width * 3), y * frame.width * 3);
  }
  return rgb;
}

// One source frame of the person over the picture at `at` (its top-left, in the frame), and its alpha
// over the frame's alpha (without a picture: the alpha alone).
function paste(rgb: Uint8Array | null, alpha: Uint8Array, frame: Size, person: CutOut, source: number, at: Point): void {
  const picture = person.rgb[source]!;
  const matte = person.alpha[source]!;
  const y0 = Math.max(0, at.y);
  const y1 = Math.min(frame.height, at.y + person.height);
  const x0 = Math.max(0, at.x);
  const x1 = Math.min(frame.width, at.x + person.width);
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const from = (y - at.y) * person.width + (x - at.x);
      const a = matte[from]!;
      if (a === 0) continue;
      const to = y * frame.width + x;
      if (rgb) for (let c = 0; c < 3; c++) rgb[3 * to + c] = Math.round(rgb[3 * to + c]! + (a * (picture[3 * from + c]! - rgb[3 * to + c]!)) / 255);
      alpha[to] = Math.round(alpha[to]! + (a * (255 - alpha[to]!)) / 255);
    }
  }
}

function boxInFrame(box: PixelBox, offset: Point, frame: Size): PixelBox | null {
  const x0 = Math.max(0, box.x0 - offset.x);
  const y0 = Math.max(0, box.y0 - offset.y);
  const x1 = Math.min(frame.width, box.x1 - offset.x);
  const y1 = Math.min(frame.height, box.y1 - offset.y);
  return x0 < x1 && y0 < y1 ? { x0, y0, x1, y1 } : null;
}
