import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BilinearMap } from '../../apps/render-worker/src/matting/bilinear';
import type { Segmenter } from '../../apps/render-worker/src/matting/matting-model';
import { ModelInput, yuvMatrixFor } from '../../apps/render-worker/src/matting/model-input';
import { cropBytes, pasteRegion, RegionSampler, type PictureSize } from '../../apps/render-worker/src/matting/region-crop';
import { DEFAULT_TRACKING, foregroundColumns, RegionTracker, type Box, type Region } from '../../apps/render-worker/src/matting/region-tracker';
import { scoreMattes, type MatteScore } from './matte-score';
import { upscale } from './upscale';

// Several people in one video (decision 0043): one crop around all of them, or one crop per person?
// Decided by measurement on a clip of people walking apart (decision 0043), next to what the tracker
// itself chooses. Each choice is given the people's true boxes (from the reference matte), so the
// tracker's lag and mistakes do not blur the comparison; the model's raw mask of each frame (no
// smoothing, no refinement) is scored against the reference.

const run = promisify(execFile);

export interface RegionChoiceClip {
  path: string;
  width: number;
  height: number;
}

export interface RegionChoiceScore {
  name: string;
  score: MatteScore;
  // The same over the frames where the people stand apart (where the two choices differ).
  apart: MatteScore | null;
  // Model runs per frame, on average.
  runs: number;
}

export async function compareRegionChoices(clip: RegionChoiceClip, truth: readonly Uint8Array[], segmenter: Segmenter): Promise<RegionChoiceScore[]> {
  const { spec } = segmenter;
  const grid = { width: spec.width, height: spec.height };
  // The crop source as the decoder makes it without refinement: twice the grid a side.
  const side = { width: 2 * grid.width, height: 2 * grid.height };
  const wholeFrames = await decode(clip.path, `scale=${grid.width}:${grid.height}:flags=area,format=yuv444p`, (grid.width * grid.height * 3));
  const sideFrames = await decode(clip.path, `scale=${side.width}:${side.height}:flags=area,format=yuv420p`, (side.width * side.height * 3) / 2);
  const input = new ModelInput(grid.width, grid.height, yuvMatrixFor(null, clip.height));
  const sampler = new RegionSampler(side, grid);
  const tensor = new Float32Array(grid.width * grid.height * 3);
  const crop = new Uint8Array(cropBytes(grid));
  const toFrame = new BilinearMap(grid.width, grid.height, clip.width, clip.height);
  const people = truth.map((reference) => peopleBoxes(reference, clip, grid));

  const wholeFrame = async (frame: number): Promise<Float32Array> => {
    input.write(wholeFrames[frame]!, spec, tensor, null, 'full');
    return segmenter.segment(tensor);
  };
  // The model on each region, pasted in place; the whole frame where any region would be (a
  // person too large to gain from a crop, or nobody).
  const regions = async (frame: number, chosen: (Region | null)[]): Promise<{ mask: Float32Array; runs: number }> => {
    if (chosen.length === 0 || chosen.some((region) => region === null)) return { mask: await wholeFrame(frame), runs: 1 };
    const merged = new Float32Array(grid.width * grid.height);
    for (const region of chosen as Region[]) {
      sampler.sample(sideFrames[frame]!, region, crop);
      input.write(crop, spec, tensor, null, 'half');
      const pasted = pasteRegion(await segmenter.segment(tensor), grid, region, grid, new Float32Array(merged.length));
      for (let i = 0; i < merged.length; i++) if (pasted[i]! > merged[i]!) merged[i] = pasted[i]!;
    }
    return { mask: merged, runs: chosen.length };
  };
  const choices: { name: string; mask: (frame: number) => Promise<{ mask: Float32Array; runs: number }> }[] = [
    { name: 'whole frame', mask: async (frame) => ({ mask: await wholeFrame(frame), runs: 1 }) },
    { name: 'one region for all', mask: (frame) => regions(frame, people[frame]!.length > 0 ? [regionAround(people[frame]!, grid)] : []) },
    { name: 'one region per person', mask: (frame) => regions(frame, people[frame]!.map((box) => regionAround([box], grid))) },
    { name: 'the tracker\'s choice', mask: (frame) => regions(frame, trackerRegions(people[frame]!, grid)) },
  ];
  const apart = (_: unknown, frame: number) => people[frame]!.length > 1;
  const scores: RegionChoiceScore[] = [];
  for (const { name, mask } of choices) {
    const alphas: Uint8Array[] = [];
    let runs = 0;
    for (let frame = 0; frame < truth.length; frame++) {
      const result = await mask(frame);
      runs += result.runs;
      alphas.push(upscale(result.mask, toFrame, 255));
    }
    const apartAlphas = alphas.filter(apart);
    scores.push({ name, score: scoreMattes(alphas, truth), apart: apartAlphas.length > 0 ? scoreMattes(apartAlphas, truth.filter(apart)) : null, runs: runs / truth.length });
  }
  return scores;
}

async function decode(path: string, filter: string, frameBytes: number): Promise<Uint8Array[]> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', path, '-vf', filter, '-f', 'rawvideo', 'pipe:1'], { encoding: 'buffer', maxBuffer: 1 << 30 });
  return Array.from({ length: Math.floor(stdout.length / frameBytes) }, (_, i) => new Uint8Array(stdout.subarray(i * frameBytes, (i + 1) * frameBytes)));
}

// Each person's box on the grid: the reference's foreground split where a column holds none of it
// (the people walk side by side; when they overlap, they are one box), as the tracker splits a mask.
function peopleBoxes(reference: Uint8Array, clip: RegionChoiceClip, grid: PictureSize): Box[] {
  const sx = grid.width / clip.width;
  const sy = grid.height / clip.height;
  return foregroundColumns(reference, clip.width, clip.height, { foregroundFrom: 128, confidentFrom: 255 }).map(({ box }) => ({
    x0: box.x0 * sx,
    y0: box.y0 * sy,
    x1: box.x1 * sx,
    y1: box.y1 * sy,
  }));
}

// The region the tracker would choose around the box that holds all these boxes (null: the whole
// frame), through its own closer-look rule on a mask that is 1 inside that box.
function regionAround(boxes: Box[], grid: PictureSize): Region | null {
  if (boxes.length === 0) return null;
  const all = { x0: Math.min(...boxes.map((box) => box.x0)), y0: Math.min(...boxes.map((box) => box.y0)), x1: Math.max(...boxes.map((box) => box.x1)), y1: Math.max(...boxes.map((box) => box.y1)) };
  return new RegionTracker(grid.width, grid.height, DEFAULT_TRACKING).closerLook(filled([all], grid))[0] ?? null;
}

// The regions the tracker itself chooses for these boxes: one each, or one around all where that
// enlarges them about as much (decision 0044).
function trackerRegions(boxes: Box[], grid: PictureSize): Region[] {
  return boxes.length === 0 ? [] : new RegionTracker(grid.width, grid.height, DEFAULT_TRACKING).closerLook(filled(boxes, grid));
}

function filled(boxes: Box[], grid: PictureSize): Float32Array {
  const mask = new Float32Array(grid.width * grid.height);
  for (const box of boxes) {
    for (let y = Math.floor(box.y0); y < Math.ceil(box.y1); y++) for (let x = Math.floor(box.x0); x < Math.ceil(box.x1); x++) mask[y * grid.width + x] = 1;
  }
  return mask;
}
