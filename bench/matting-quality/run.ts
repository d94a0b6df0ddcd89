import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlateSettings } from '../../apps/render-worker/src/matting/background-plate';
import { loadMattingModels } from '../../apps/render-worker/src/matting/load-matting-models';
import { variantFor, type Segmenter } from '../../apps/render-worker/src/matting/matting-model';
import { runBench } from '../support/bench-stack';
import { DEV_SET, issue14Set, QUICK_SET } from './clip-sets';
import { frameCount, type ClipSpec, type SourceName } from './clip-spec';
import { errorPng, flickerPng, greenPng } from './green';
import { flickerByDistance, keptInBox, scoreMattes, type MatteScore } from './matte-score';
import { pipelineMatte, type DeliveredCodec } from './pipeline-matte';
import { plateOverrides } from './plate-overrides';
import { compareRegionChoices, type RegionChoiceScore } from './region-choice';
import { renderClip, type RenderedClip } from './render-clip';
import { scoreTable, type ClipResult } from './score-table';
import { sourcePerson, type SourcePerson } from './source-person';

// bench/matting-quality (decisions 0041 and 0066): scores the pipeline's matte against exact reference
// mattes on synthetic clips: the people of the real webcam clips (../shared/media/video, upper body),
// cut out with their reference matte (the pipeline's own on every whole frame, refinement on, checked
// by eye on green) and pasted into drawn rooms (clip-sets.ts says what each clip covers). Every clip is
// matted twice in the run, by the pipeline as it is (tracking, default settings) and by the plain
// per-frame model (tracking off), so every change reads against the model's own figures:
//   mean IoU and the worst frame's, at alpha 0.5, over the frames that show someone;
//   kept %: the share of the empty frames' pixels the matte keeps (furniture taken for a person);
//   flicker: the mean frame-to-frame alpha change where the reference is background in both frames.
// For each clip, the worst frame of each way is saved on green with the reference at that frame, the
// empty frame where each keeps the most, and the reference where it shows the most of the people.
// Sets: dev (the set of decision 0066), quick (three of its clips), all (dev and the issue-14 clips, with the
// webcam clips' drift between tracked and whole-frame mattes and the region choice on two people).
// Usage: npm run bench:matting-quality [-- --set dev|quick|all --clips pan-60,shake-65 --frames 0.9 --label before --refine on|off --rooms 8
//   --plate '{"differWeight":7}' --delivered vp9|h264]
//   (composites go to reports/matting-quality/<label>; --clips: only these of the set; --frames: print the pipeline's
//   frames under that IoU and save each one's errors (green.ts errorPng), and its flicker near the person and beyond;
//   --rooms: the issue-14 rooms in --set all; --plate: background-plate settings over the defaults, on the
//   pipeline's way only, plate-overrides.ts; --delivered: the pipeline's matte decoded from the job's VP9 WebM or
//   H.264 matte, as a user gets it, instead of the alpha the encoder was given)

const MEDIA = join(__dirname, '..', '..', '..', 'shared', 'media', 'video');
const SOURCES: SourceName[] = ['again', 'thanks'];
const REPORTS = join(__dirname, '..', '..', 'reports', 'matting-quality');
const WAYS = [
  { key: 'pipeline', name: 'pipeline', tracking: true },
  { key: 'perFrame', name: 'per-frame', tracking: false },
] as const;

// With --frames, each clip's flicker is also split at this distance from the person (flickerByDistance):
// a fringe that sweeps with them, or the background itself.
const FLICKER_NEAR_PIXELS = 2;

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};

interface Settings {
  refine: boolean;
  segmenters: readonly Segmenter[];
  dir: string;
  // Where this label's composites go.
  out: string;
  // Print the pipeline's frames under this IoU (--frames), or null.
  framesUnder: number | null;
  // The pipeline's background-plate settings over the defaults (--plate).
  plate: Partial<PlateSettings>;
  // The pipeline's matte read back from the job's file in this codec (--delivered), or as made.
  delivered: DeliveredCodec | undefined;
}

interface ClipOutcome extends ClipResult {
  // Each piece of furniture: the share of its box kept over the empty frames, both ways.
  furniture: { kind: string; pipeline: number; perFrame: number }[];
  pngs: string[];
}

// The clip matted both ways, scored, and its telling frames saved on green.
async function scoreClip(clip: RenderedClip, settings: Settings): Promise<ClipOutcome> {
  const { video, truth } = clip;
  const scores = {} as Record<(typeof WAYS)[number]['key'], MatteScore>;
  const furniture = clip.furniture.map(({ kind }) => ({ kind, pipeline: 0, perFrame: 0 }));
  const pngs: string[] = [];
  const referenceFrames = new Set<number>();
  for (const { key, name, tracking } of WAYS) {
    const alpha = await pipelineMatte(video, settings.segmenters, join(settings.dir, 'work'), {
      refine: settings.refine,
      tracking,
      ...(key === 'pipeline' && { plateSettings: settings.plate }),
      ...(key === 'pipeline' && settings.delivered && { delivered: settings.delivered }),
    });
    const score = scoreMattes(alpha, truth);
    scores[key] = score;
    if (key === 'pipeline' && settings.framesUnder !== null) {
      const under = settings.framesUnder;
      console.log(framesUnder(video.name, score, under));
      const { near, beyond } = flickerByDistance(alpha, truth, video.width, FLICKER_NEAR_PIXELS);
      console.log(`  ${video.name}: flicker ${near.toFixed(5)} within ${FLICKER_NEAR_PIXELS} px of the person, ${beyond.toFixed(5)} beyond`);
      for (const [frame, iou] of score.frameIous.entries()) {
        if (iou !== null && iou < under) await errorPng(video, frame, alpha[frame]!, truth[frame]!, join(settings.out, `${video.name}-errors-f${frame}.png`));
      }
    }
    if (key === 'pipeline' && score.flicker > 0) {
      const png = join(settings.out, `${video.name}-pipeline-flicker.png`);
      await flickerPng(video, fullestFrame(truth), alpha, truth, png);
      pngs.push(png);
    }
    clip.furniture.forEach(({ boxes }, i) => (furniture[i]![key] = keptInBox(alpha, truth, video.width, boxes)));
    const saves: [string, number][] = [];
    if (score.emptyFrames < score.frames) saves.push(['worst', score.worstFrame]);
    if (score.mostKeptFrame !== null) saves.push(['most-kept-empty', score.mostKeptFrame]);
    for (const [what, frame] of saves) {
      const png = join(settings.out, `${video.name}-${name}-${what}-f${frame}.png`);
      await greenPng(video, frame, alpha[frame]!, png);
      pngs.push(png);
      if (what === 'worst') referenceFrames.add(frame);
    }
  }
  for (const frame of referenceFrames) {
    const png = join(settings.out, `${video.name}-reference-f${frame}.png`);
    await greenPng(video, frame, truth[frame]!, png);
    pngs.push(png);
  }
  // The worst frames are mostly someone's first at an edge: the whole person is checked where the
  // reference shows the most of them.
  const fullest = fullestFrame(truth);
  const png = join(settings.out, `${video.name}-reference-fullest-f${fullest}.png`);
  await greenPng(video, fullest, truth[fullest]!, png);
  pngs.push(png);
  return { name: video.name, pixels: video.width * video.height, pipeline: scores.pipeline, perFrame: scores.perFrame, furniture, pngs };
}

// The frames under `under`, to see where a clip loses (its first frames, its last, a run) and how:
// number:IoU(-missed/+extra), in % of the reference's foreground.
function framesUnder(name: string, score: MatteScore, under: number): string {
  const percent = (share: number): string => (100 * share).toFixed(0);
  const frames = score.frameIous.flatMap((iou, frame) => {
    const errors = score.frameErrors[frame];
    return iou !== null && errors && iou < under ? [`${frame}:${iou.toFixed(2)}(-${percent(errors.missed)}/+${percent(errors.extra)})`] : [];
  });
  return `  ${name}: ${frames.length} frames under ${under}${frames.length > 0 ? `: ${frames.join(' ')}` : ''}`;
}

function fullestFrame(truth: readonly Uint8Array[]): number {
  const shown = truth.map((alpha) => alpha.reduce((count, value) => count + (value >= 128 ? 1 : 0), 0));
  return shown.indexOf(Math.max(...shown));
}

// The webcam clip tracked against its whole-frame matte with the same settings (the reference itself
// when refining): what tracking changes on a person who fills the frame; it should stay within 0.002
// of 1. Its reference is saved on green at its first, middle and last frames for the eye.
async function webcamDrift(source: SourcePerson, settings: Settings): Promise<string> {
  const { video, reference } = source;
  const work = join(settings.dir, 'work');
  const whole = settings.refine ? reference : await pipelineMatte(video, settings.segmenters, work, { refine: false, tracking: false });
  const score = scoreMattes(await pipelineMatte(video, settings.segmenters, work, { refine: settings.refine, tracking: true }), whole);
  for (const frame of [0, Math.floor(reference.length / 2), reference.length - 1]) {
    await greenPng(video, frame, reference[frame]!, join(settings.out, `${video.name}-webcam-reference-f${frame}.png`));
  }
  return `  ${`${video.name} (webcam)`.padEnd(24)} mean IoU ${score.meanIou.toFixed(4)}  worst ${score.worstIou.toFixed(4)} (${score.worstFrame})  MAE ${score.mae.toFixed(4)}  flicker ${score.flicker.toFixed(5)}`;
}

function clipLine(clip: ClipSpec): string {
  const camera = clip.camera.kind === 'static' ? 'still' : clip.camera.kind;
  return `  ${clip.name.padEnd(26)} ${`${clip.width}x${clip.height}`.padEnd(8)} ${String(clip.fps).padStart(2)} fps ${String(frameCount(clip)).padStart(4)} frames  ${camera.padEnd(5)}  ${clip.covers}`;
}

async function main(): Promise<void> {
  if (!existsSync(MEDIA)) {
    console.log(`bench:matting-quality skipped: ${MEDIA} is absent (the real test media live outside the repo)`);
    return;
  }
  const started = Date.now();
  const set = option('set', 'dev');
  if (!['dev', 'quick', 'all'].includes(set)) throw new Error(`--set ${set}: dev, quick or all`);
  const label = option('label', 'latest');
  const refine = option('refine', 'on') !== 'off';
  const rooms = Number(option('rooms', '8'));
  const plate = plateOverrides(option('plate', '{}'));
  const deliveredOption = option('delivered', '');
  if (!['', 'vp9', 'h264'].includes(deliveredOption)) throw new Error(`--delivered ${deliveredOption}: vp9 or h264`);
  const delivered = deliveredOption === '' ? undefined : (deliveredOption as DeliveredCodec);
  const out = join(REPORTS, label);
  // Composites of an earlier run with this label would be mistaken for this one's.
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'vj-bench-matting-quality-'));
  const models = await loadMattingModels({ cacheDir: join(tmpdir(), 'vj-models'), executionProviders: ['cpu'], intraOpThreads: 1 });
  const segmenters = models.segmentersFor(true);
  const under = option('frames', '');
  const settings: Settings = { refine, segmenters, dir, out, framesUnder: under === '' ? null : Number(under), plate, delivered };
  try {
    const sources = new Map<SourceName, SourcePerson>();
    for (const name of SOURCES) sources.set(name, await sourcePerson(name, MEDIA, segmenters, dir));
    const sourceFrames = { again: sources.get('again')!.reference.length, thanks: sources.get('thanks')!.reference.length };
    const named = option('clips', '');
    const inSet = set === 'quick' ? QUICK_SET : set === 'dev' ? DEV_SET : [...DEV_SET, ...issue14Set(sourceFrames, rooms)];
    const clips = named === '' ? inSet : inSet.filter((clip) => named.split(',').includes(clip.name));
    if (clips.length === 0) throw new Error(`--clips ${named}: none of the set's clips`);
    const plateNote = Object.keys(plate).length > 0 ? `, plate ${JSON.stringify(plate)}` : '';
    console.log(`matting quality (${label}), set ${set}: ${clips.length} clips${plateNote}${delivered ? `, the pipeline's matte read back from its ${delivered} file` : ''}`);
    for (const clip of clips) console.log(clipLine(clip));
    const outcomes: ClipOutcome[] = [];
    let choices: RegionChoiceScore[] = [];
    for (const spec of clips) {
      const clip = await renderClip(spec, sources, dir);
      outcomes.push(await scoreClip(clip, settings));
      // Whether one region per person would do better, given where the people truly are (decisions 0043, 0044).
      if (spec.name === 'two-people-30') choices = await compareRegionChoices(clip.video, clip.truth, variantFor(segmenters, spec.width, spec.height));
      rmSync(clip.video.path);
    }
    const drift = set === 'all' ? await Promise.all(SOURCES.map((name) => webcamDrift(sources.get(name)!, settings))) : [];

    console.log(`\nmatting quality (${label}): each clip matted by the pipeline and by the plain per-frame model, refinement ${refine ? 'on' : 'off'}`);
    console.log('(IoU over the frames that show someone; kept %: of the empty frames\' pixels; TOTAL: mean IoU and flicker averaged over clips, the worst frame of all, kept % of all empty frames)');
    for (const line of scoreTable(outcomes)) console.log(line);
    const furnished = outcomes.filter((outcome) => outcome.furniture.length > 0);
    if (furnished.length > 0) {
      console.log('\nfurniture: the share of its box kept over the empty frames, pipeline / per-frame model');
      for (const { name, furniture } of furnished) {
        console.log(`  ${name.padEnd(24)} ${furniture.map(({ kind, pipeline, perFrame }) => `${kind} ${(100 * pipeline).toFixed(1)} % / ${(100 * perFrame).toFixed(1)} %`).join('   ')}`);
      }
    }
    if (drift.length > 0) {
      console.log('\nwebcam clips, tracked against the whole-frame matte (should stay within 0.002 of 1)');
      for (const line of drift) console.log(line);
    }
    if (choices.length > 0) {
      console.log('\ntwo-people-30, the model\'s raw mask with the people\'s true boxes: mean IoU / worst, all frames and the frames where they stand apart');
      for (const { name, score, apart, runs } of choices) {
        const apartScore = apart ? `${apart.meanIou.toFixed(4)} / ${apart.worstIou.toFixed(4)} (${apart.frames} frames)` : 'none';
        console.log(`  ${name.padEnd(22)} ${score.meanIou.toFixed(4)} / ${score.worstIou.toFixed(4)}   apart ${apartScore}   ${runs.toFixed(2)} model runs a frame`);
      }
    }
    console.log(`\nframes on green (the worst frame of each way and the reference at it, the empty frame each keeps most of, the reference at its fullest), in ${out}:`);
    for (const { pngs } of outcomes) for (const png of pngs) console.log(`  ${png}`);
    console.log(`\n${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
