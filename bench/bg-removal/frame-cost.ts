import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_PLATE } from '../../apps/render-worker/src/matting/background-plate';
import { DEFAULT_DROPOUT_HOLD } from '../../apps/render-worker/src/matting/dropout-hold';
import { FrameMatter, type PendingMatte } from '../../apps/render-worker/src/matting/frame-matter';
import { DEFAULT_MATTE } from '../../apps/render-worker/src/matting/matte-builder';
import type { Segmenter } from '../../apps/render-worker/src/matting/matting-model';
import { DEFAULT_TRACKING } from '../../apps/render-worker/src/matting/region-tracker';
import { DEFAULT_STILL_OBJECTS } from '../../apps/render-worker/src/matting/still-object-filter';
import { DEFAULT_SMOOTHING } from '../../apps/render-worker/src/matting/temporal-smoother';
import { numberArg, runBench, stringArg } from '../support/bench-stack';

// bench/bg-removal/frame-cost: what the render worker's own thread spends on each frame of a 640x480
// clip, stage by stage (STAGES), refinement off and on, without the model (a stand-in answers at once with a person-shaped mask)
// or ffmpeg: the thread's CPU time per frame, the minimum of the runs (one process, no other work, so
// steadier than bench:bg-removal's fps, which swing by 10 points between runs on this machine).
// `--scene moving` (the default) is a test picture that moves everywhere: nothing is learned, every
// dilation's box is the whole grid. `--scene still` is a still one, as a fixed camera's room is: the plate
// learns every pixel the person does not cover, which is most of its work on real footage.
// Usage: npm run bench:matting-frame-cost [-- --runs 6 --seconds 10 --scene moving|still]

const run = promisify(execFile);
const GRID = { width: 256, height: 256 };
const SIDE = { width: 512, height: 384 };
const FULL = { width: 640, height: 480 };
const SCENES = ['moving', 'still'] as const;
type Scene = (typeof SCENES)[number];

interface Decoded {
  small: Buffer;
  side: Buffer;
  sideSize: { width: number; height: number };
  frames: number;
}

// The decoder's two outputs for a test picture, as the pipeline gets them for 640x480 input (the
// 256x256 model variant; the crop source at twice the grid, or the whole picture when refining).
async function decodedFrames(dir: string, seconds: number, sideSize: Decoded['sideSize'], scene: Scene): Promise<Decoded> {
  const clip = join(dir, 'clip.mp4');
  const source = scene === 'still' ? `smptehdbars=size=640x480:rate=30:duration=${seconds}` : `testsrc2=size=640x480:rate=30:duration=${seconds}`;
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', clip]);
  const small = join(dir, 'small.yuv');
  const side = join(dir, 'side.yuv');
  await run('ffmpeg', ['-v', 'error', '-y', '-i', clip, '-vf', `scale=${GRID.width}:${GRID.height}:flags=area,format=yuv444p`, '-f', 'rawvideo', small]);
  await run('ffmpeg', ['-v', 'error', '-y', '-i', clip, '-vf', `scale=${sideSize.width}:${sideSize.height}:flags=area,format=yuv420p`, '-f', 'rawvideo', side]);
  const smallFrames = readFileSync(small);
  return { small: smallFrames, side: readFileSync(side), sideSize, frames: smallFrames.length / (GRID.width * GRID.height * 3) };
}

// A person 12 % of the input's width and 40 % of its height, low in whatever the model is shown: small
// in the whole frame, so the tracker crops around them.
function standIn(): Segmenter {
  const mask = new Float32Array(GRID.width * GRID.height);
  for (let y = Math.round(GRID.height * 0.55); y < Math.round(GRID.height * 0.95); y++) {
    for (let x = Math.round(GRID.width * 0.42); x < Math.round(GRID.width * 0.54); x++) mask[y * GRID.width + x] = 0.97;
  }
  const spec = { name: 'stand-in', path: '', ...GRID, output: 'probability' as const, layout: 'nchw' as const, mean: [0.485, 0.456, 0.406] as const, std: [0.229, 0.224, 0.225] as const };
  return { spec, segment: () => Promise.resolve(Float32Array.from(mask)) };
}

// What the worker's thread runs beyond the model, stage by stage (decision 0066): whole frames only, then
// crops that follow the person, then still objects taken out, then the background plate.
const STAGES = [
  { name: 'whole frames', tracking: false, hold: false, stillObjects: false, plate: false },
  { name: '+ crops', tracking: true, hold: false, stillObjects: false, plate: false },
  { name: '+ dropout hold', tracking: true, hold: true, stillObjects: false, plate: false },
  { name: '+ still objects', tracking: true, hold: true, stillObjects: true, plate: false },
  { name: '+ background plate', tracking: true, hold: true, stillObjects: true, plate: true },
] as const;

type Stage = (typeof STAGES)[number];

// CPU milliseconds per frame of starting and finishing every frame, as the pipeline does (3 in flight).
async function frameCost(decoded: Decoded, stage: Stage, refine: boolean): Promise<number> {
  const matter = new FrameMatter(standIn(), {
    width: 640,
    height: 480,
    matrix: 'bt601',
    matte: { ...DEFAULT_MATTE, refine },
    smoothing: DEFAULT_SMOOTHING,
    tracking: stage.tracking ? { settings: DEFAULT_TRACKING, sideSize: decoded.sideSize } : null,
    hold: stage.hold ? { settings: DEFAULT_DROPOUT_HOLD, fps: 30 } : null,
    stillObjects: stage.stillObjects ? { settings: DEFAULT_STILL_OBJECTS, fps: 30 } : null,
    plate: stage.plate ? DEFAULT_PLATE : null,
    depth: 4,
  });
  const smallBytes = GRID.width * GRID.height * 3;
  const sideBytes = (decoded.sideSize.width * decoded.sideSize.height * 3) / 2;
  const pending: PendingMatte[] = [];
  const start = process.cpuUsage();
  for (let n = 0; n < decoded.frames; n++) {
    pending.push(matter.start(decoded.small.subarray(n * smallBytes, (n + 1) * smallBytes), decoded.side.subarray(n * sideBytes, (n + 1) * sideBytes)));
    if (pending.length === 3) await matter.finish(pending.shift() as PendingMatte);
  }
  for (const frame of pending) await matter.finish(frame);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / decoded.frames;
}

async function main(): Promise<void> {
  const runs = numberArg('--runs', 6);
  const seconds = numberArg('--seconds', 10);
  const scene = stringArg('--scene', 'moving') as Scene;
  if (!SCENES.includes(scene)) throw new Error(`--scene is one of ${SCENES.join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'vj-bench-frame-cost-'));
  try {
    for (const refine of [false, true]) {
      // With refinement the side frame is the whole picture (the guide, and the plate's picture).
      const decoded = await decodedFrames(dir, seconds, refine ? FULL : SIDE, scene);
      const costs = STAGES.map(() => [] as number[]);
      // Interleaved, so every stage sees the same machine.
      for (let i = 0; i < runs; i++) for (const [index, stage] of STAGES.entries()) costs[index]!.push(await frameCost(decoded, stage, refine));
      console.log(`matting frame cost, the worker's thread without the model, 640x480, ${scene} scene, refinement ${refine ? 'on' : 'off'}, ${decoded.frames} frames, least of ${runs} runs`);
      let before = 0;
      for (const [index, stage] of STAGES.entries()) {
        const least = Math.min(...costs[index]!);
        const added = index === 0 ? '' : `   (${least - before >= 0 ? '+' : ''}${(least - before).toFixed(2)})`;
        console.log(`  ${stage.name.padEnd(20)} ${least.toFixed(2)} ms a frame${added}   (runs: ${costs[index]!.map((value) => value.toFixed(2)).join(', ')})`);
        before = least;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
