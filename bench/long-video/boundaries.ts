import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadMattingModels } from '../../apps/render-worker/src/matting/load-matting-models';
import type { Segmenter } from '../../apps/render-worker/src/matting/matting-model';
import { DEFAULT_PLATE, type PlateSnapshot } from '../../apps/render-worker/src/matting/background-plate';
import { platePass, PLATE_PASS } from '../../apps/render-worker/src/matting/plate-pass';
import { segmentPlan, type Segment } from '../../apps/render-worker/src/matting/segment-plan';
import { runBench } from '../support/bench-stack';
import { frameCount, type ClipSpec, type SourceName } from '../matting-quality/clip-spec';
import { writeFrames, readFrames } from '../matting-quality/ffmpeg-io';
import { scoreMattes } from '../matting-quality/matte-score';
import { pipelineMatte, type MatteSettings, type VideoFile } from '../matting-quality/pipeline-matte';
import { renderClip } from '../matting-quality/render-clip';
import { sourcePerson, type SourcePerson } from '../matting-quality/source-person';

// Issue 40: can a long background removal be cut into segments matted apart, without a seam? Each
// segment is matted from `warm-up` seconds before its start, so that the tracking, the smoothing and
// the background plate have seen what came before, and those warm-up frames are dropped. This bench
// mattes one long still-camera clip (people entering, standing across a boundary, leaving, a
// furnished room empty between them) whole and in segments, with each warm-up asked for, and prints
// per warm-up, against the whole run's own matte: the IoU of the frames within 1 s of each boundary
// (mean and worst), the flicker step at the boundary (the mean alpha change from a segment's last
// frame to the next one's first, beside the whole run's at the same frame), and, against the exact
// reference, the mean IoU of each way; and the same for a second whole run, which is what a segmented
// run can be held to. The boundaries are the worker's segment plan's (segment-plan.ts:
// keyframes near each segment length). The segments' inputs are cut losslessly by frame number from
// their warm-up on, so the pictures are the whole run's to the bit and only the warm-up differs.
// `--scene talk`: a presenter stands across every boundary instead, tracked the whole clip long.
// `--carry`: each warm-up also with every segment's background plate begun from the whole run's at
// that frame, what a plate carried to each segment (decision 0100) would give at best.
// `--pass N`: each warm-up also with every segment's plate begun from a plate pass, what production
// carries (plate-pass.ts): the pipeline over every N-th frame of the clip, its plate taken at the last
// pass frame before each segment's first matted frame.
// Usage: npm run bench:segment-boundaries [-- --seconds 40 --segment 10 --warmups 0,1,2,4 --fps 30 --scene walkers|talk --carry --pass 5 --pass-known 1 --pass-plate '{"everyRow":false}']

const MEDIA = join(__dirname, '..', '..', '..', 'shared', 'media', 'video');
const SOURCES: SourceName[] = ['again', 'thanks'];

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};

type Scene = 'walkers' | 'talk';

// People come and go every few seconds, so that every boundary falls near someone entering, standing
// or leaving, over a room with furniture the plate must learn.
function walkersClip(seconds: number, fps: 30 | 10): ClipSpec {
  const walkers: ClipSpec['walkers'] = [];
  const edges = [
    ['left', 'right'],
    ['right', 'left'],
    ['bottom', 'right'],
    ['left', 'bottom'],
  ] as const;
  for (let start = 0.5, i = 0; start + 6 < seconds; start += 4.5, i++) {
    const [from, to] = edges[i % edges.length]!;
    walkers.push({ source: SOURCES[i % 2]!, height: [0.6, 0.45, 0.75][i % 3]!, path: { kind: 'through', from, to, start, end: start + 6, pause: i % 2 ? 2 : 0.5, lane: 0.3 + 0.1 * (i % 5) }, firstFrame: 7 * i });
  }
  const room: ClipSpec['room'] = { seed: 5, furniture: [{ kind: 'plant', at: 0.1, height: 0.4 }, { kind: 'coat-on-chair', at: 0.5, height: 0.45 }, { kind: 'table', at: 0.82, height: 0.45 }] };
  return stillCamera(`long-${seconds}s-${fps}fps`, 'people entering and leaving every few seconds in a furnished room, a still camera', { seconds, fps, room, walkers });
}

// A talk: one presenter walks in and stands (moving as the webcam person does) across every boundary,
// tracked the whole time, while someone smaller passes behind every 9 s.
function talkClip(seconds: number, fps: 30 | 10): ClipSpec {
  const walkers: ClipSpec['walkers'] = [{ source: 'again', height: 0.8, path: { kind: 'through', from: 'left', to: 'right', start: 0.5, end: seconds - 0.5, pause: seconds - 3, lane: 0.4 } }];
  for (let start = 3, i = 0; start + 5 < seconds; start += 9, i++) {
    walkers.push({ source: 'thanks', height: 0.45, floor: 0.1, path: { kind: 'through', from: i % 2 ? 'left' : 'right', to: i % 2 ? 'right' : 'left', start, end: start + 5, lane: 0.75 }, firstFrame: 11 * i });
  }
  const room: ClipSpec['room'] = { seed: 9, furniture: [{ kind: 'plant', at: 0.9, height: 0.4 }, { kind: 'table', at: 0.15, height: 0.45 }] };
  return stillCamera(`talk-${seconds}s-${fps}fps`, 'a presenter standing the whole clip while others pass behind, a still camera', { seconds, fps, room, walkers });
}

// A 768x432 clip from a still camera.
function stillCamera(name: string, covers: string, scene: Pick<ClipSpec, 'seconds' | 'fps' | 'room' | 'walkers'>): ClipSpec {
  return { name, covers, width: 768, height: 432, ...scene, camera: { kind: 'static' } };
}

// Frames [from, to) of the clip, losslessly: decoded, they are the clip's own pictures.
async function cutFrames(video: VideoFile, from: number, to: number, fps: number, dir: string): Promise<VideoFile> {
  const frameBytes = (video.width * video.height * 3) / 2;
  const frames = await readFrames(['-i', video.path, '-vf', `trim=start_frame=${from}:end_frame=${to}`, '-pix_fmt', 'yuv420p'], frameBytes);
  const path = join(dir, `${video.name}-${from}-${to}.mkv`);
  await writeFrames(['-f', 'rawvideo', '-pix_fmt', 'yuv420p', '-s', `${video.width}x${video.height}`, '-r', String(fps)], ['-c:v', 'libx264', '-qp', '0', '-preset', 'ultrafast', path], frames);
  return { ...video, name: `${video.name}-${from}`, path };
}

// The mean alpha change from frame n-1 to frame n, 0 to 1.
function step(mattes: readonly Uint8Array[], n: number): number {
  const [a, b] = [mattes[n - 1]!, mattes[n]!];
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length / 255;
}

// `plates`: with --carry, what the whole run's plate had learned before each frame (by 0-based frame
// number), each segment beginning from it.
async function segmented(video: VideoFile, plan: readonly Segment[], fps: number, segmenters: readonly Segmenter[], dir: string, plates?: ReadonlyMap<number, PlateSnapshot>): Promise<Uint8Array[]> {
  const mattes: Uint8Array[] = [];
  for (const { matteFrom, from, to } of plan) {
    const input = plan.length === 1 ? video : await cutFrames(video, matteFrom, to, fps, dir);
    const plateSeed = plates?.get(matteFrom);
    const matted = await pipelineMatte(input, segmenters, mkdtempSync(join(dir, 'segment-')), { refine: true, tracking: true, firstFrame: matteFrom + 1, ...(plateSeed && { plateSeed }) });
    mattes.push(...matted.slice(from - matteFrom));
    if (input !== video) rmSync(input.path, { force: true });
  }
  return mattes;
}

// The frame numbers of the video's keyframes, in presentation order.
async function keyframesOf(path: string): Promise<number[]> {
  const { stdout } = await promisify(execFile)('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'frame=key_frame', '-of', 'csv=p=0', path]);
  return stdout
    .trim()
    .split('\n')
    .flatMap((line, index) => (line.startsWith('1') ? [index] : []));
}

const f4 = (value: number) => value.toFixed(4);

async function main(): Promise<void> {
  const seconds = Number(option('seconds', '40'));
  const segmentSeconds = Number(option('segment', '10'));
  const warmups = option('warmups', '0,1,2,4').split(',').map(Number);
  const fps = Number(option('fps', '30')) as 30 | 10;
  const dir = mkdtempSync(join(tmpdir(), 'vj-bench-segments-'));
  mkdirSync(dir, { recursive: true });
  try {
    const models = await loadMattingModels({ cacheDir: join(tmpdir(), 'vj-models'), executionProviders: ['cpu'], intraOpThreads: 1 });
    const segmenters = models.segmentersFor(true);
    const sources = new Map<SourceName, SourcePerson>();
    for (const name of SOURCES) sources.set(name, await sourcePerson(name, MEDIA, segmenters, dir));
    const scene = option('scene', 'walkers') as Scene;
    if (scene !== 'walkers' && scene !== 'talk') throw new Error(`--scene is walkers or talk, not ${scene}`);
    const spec = scene === 'talk' ? talkClip(seconds, fps) : walkersClip(seconds, fps);
    const clip = await renderClip(spec, sources, dir);
    const frames = frameCount(spec);
    const keyframes = await keyframesOf(clip.video.path);
    const planFor = (warmupSeconds: number) => segmentPlan({ frames, fps, keyframes, segmentSeconds, warmupSeconds });
    const boundaries = planFor(0).slice(1).map((segment) => segment.from);
    console.log(`segment boundaries: ${spec.name}, ${frames} frames, keyframes at ${keyframes.join(', ')}; segments of ${segmentSeconds} s, boundaries at frames ${boundaries.join(', ')}`);
    // The whole run, keeping its plate before each segment's first matted frame where --carry asks.
    const carry = process.argv.includes('--carry');
    const plates = new Map<number, PlateSnapshot>();
    const starts = warmups.flatMap((warmup) => planFor(warmup).slice(1).map((segment) => segment.matteFrom));
    const onPlate: MatteSettings['onPlate'] = { afterFrames: starts, take: (frame: number, snapshot: PlateSnapshot) => plates.set(frame, snapshot) };
    const whole = await pipelineMatte(clip.video, segmenters, mkdtempSync(join(dir, 'whole-')), { refine: true, tracking: true, ...(carry && { onPlate }) });
    // The plate pass (plate-pass.ts), as production runs it unless --pass-known K (the pass trusts a
    // pixel after K frames of background) or --pass-plate JSON (more of its plate settings) say otherwise.
    const passStep = Number(option('pass', '0'));
    const passPlates = new Map<number, PlateSnapshot>();
    if (passStep > 0) {
      const started = Date.now();
      const passKnown = option('pass-known', '');
      const passWorkDir = mkdtempSync(join(dir, 'pass-'));
      await platePass({
        inputPath: clip.video.path,
        workDir: passWorkDir,
        options: { output_codec: 'h264', refine_foreground_edges: true },
        segmenters,
        maxSeconds: 3600,
        timeoutMs: 600_000,
        segmentStarts: starts,
        every: passStep,
        plate: { ...PLATE_PASS.plate, ...(passKnown && { knownAfter: Number(passKnown) }), ...JSON.parse(option('pass-plate', '{}')) },
        onPlate: (start, plate) => passPlates.set(start, plate),
      });
      rmSync(passWorkDir, { recursive: true, force: true });
      console.log(`plate pass over one frame in ${passStep}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      // What each plate knows: the share of its pixels seen as background long enough to be trusted.
      const known = (plate: PlateSnapshot | undefined) => (plate ? `${((100 * plate.seen.filter((count) => count >= DEFAULT_PLATE.knownAfter).length) / plate.seen.length).toFixed(1)} %${plate.empty ? ' (empty)' : ''}` : 'none');
      for (const start of [...new Set(starts)].sort((a, b) => a - b)) console.log(`  plate before frame ${start}: the pass's knows ${known(passPlates.get(start))}${carry ? `, the whole run's ${known(plates.get(start))}` : ''}`);
    }
    const wholeScore = scoreMattes(whole, clip.truth);
    console.log(`whole run against the reference: mean IoU ${f4(wholeScore.meanIou)}, worst ${f4(wholeScore.worstIou)}, flicker ${wholeScore.flicker.toFixed(5)}`);
    console.log('| warm-up | boundary frames (±1 s) vs whole run: mean IoU / worst | per boundary: worst IoU | step at boundary, segmented / whole (mean alpha change) | mean IoU vs reference: segmented / whole |');
    console.log('|---|---|---|---|---|');
    // The whole run again: what two runs of the same frames agree to (the model's runs come back in
    // their own order), the most a segmented run can be asked to match.
    const ways = [
      ...warmups.flatMap((warmup) => [
        { name: `${warmup} s`, warmup, plates: undefined },
        ...(carry ? [{ name: `${warmup} s, plate carried`, warmup, plates }] : []),
        ...(passStep > 0 ? [{ name: `${warmup} s, plate from the pass`, warmup, plates: passPlates }] : []),
      ]),
      { name: 'whole again', warmup: null, plates: undefined },
    ];
    for (const { name, warmup, plates: seeds } of ways) {
      const pieces =
        warmup === null
          ? await pipelineMatte(clip.video, segmenters, mkdtempSync(join(dir, 'again-')), { refine: true, tracking: true })
          : await segmented(clip.video, planFor(warmup), fps, segmenters, dir, seeds);
      const near = (b: number) => [Math.max(0, b - fps), Math.min(frames, b + fps)] as const;
      const perBoundary = boundaries.map((b) => scoreMattes(pieces.slice(...near(b)), whole.slice(...near(b))));
      const all = scoreMattes(boundaries.flatMap((b) => pieces.slice(...near(b))), boundaries.flatMap((b) => whole.slice(...near(b))));
      // Where a boundary falls short, which frames: a run of them says what state the segment lacked.
      perBoundary.forEach((score, b) => {
        const first = near(boundaries[b]!)[0];
        const short = score.frameIous.flatMap((iou, i) => (iou !== null && iou < 0.99 ? [`${first + i}: ${iou.toFixed(3)}`] : []));
        if (short.length > 0) console.log(`  ${name}, boundary ${boundaries[b]}, frames under 0.99: ${short.join(', ')}`);
      });
      const steps = boundaries.map((b) => `${step(pieces, b).toFixed(4)} / ${step(whole, b).toFixed(4)}`);
      const score = scoreMattes(pieces, clip.truth);
      console.log(`| ${name} | ${f4(all.meanIou)} / ${f4(all.worstIou)} | ${perBoundary.map((s) => f4(s.worstIou)).join(', ')} | ${steps.join(', ')} | ${f4(score.meanIou)} / ${f4(wholeScore.meanIou)} |`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
