import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { loadMattingModels } from '../../apps/render-worker/src/matting/load-matting-models';
import type { Segmenter } from '../../apps/render-worker/src/matting/matting-model';
import { removeBackground } from '../../apps/render-worker/src/matting/remove-background';
import { runBench } from '../support/bench-stack';
import { scoreMattes, type MatteScore } from './matte-score';

// bench/matting-quality (issue 14): scores the pipeline's matte (default settings: edge refinement on)
// against reference mattes, per clip: IoU at alpha 0.5, mean absolute error (alpha 0..1) and flicker
// (mean frame-to-frame alpha change where the reference is background in both frames, on a static
// background).
//   webcam clips (../shared/media/video, upper body): the reference is the pipeline's own matte of
//     the clip, checked by eye on green (reports/matting-quality/*-reference-green.png). Their row
//     measures drift from it: a change to the pipeline should keep it within 0.002 of 1.
//   small-person clips, made from each webcam clip: the person, cut out with that reference, scaled
//     down and walked across a static 768x432 room-like background, so the model sees a small
//     person as in full-body footage. The reference is exact: the cut-out's alpha where it was pasted.
// Usage: npm run bench:matting-quality [-- --label before]  (composites go to reports/matting-quality/<label>)

const run = promisify(execFile);
const MEDIA = join(__dirname, '..', '..', '..', 'shared', 'media', 'video');
const CLIPS = ['again.mkv', 'thanks.mkv'];
const ROOM = { width: 768, height: 432 };
// Heights of the pasted person, as a share of the frame's height.
const SCALES = [0.5, 0.3];
const REPORTS = join(__dirname, '..', '..', 'reports', 'matting-quality');

const option = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};

interface Clip {
  name: string;
  path: string;
  width: number;
  height: number;
}

async function probeSize(path: string): Promise<{ width: number; height: number }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', path]);
  const [width, height] = stdout.trim().split(',').map(Number);
  return { width: width!, height: height! };
}

// The pipeline's full-size alpha of every frame (refinement on: the alpha the encoder gets is full size).
async function matte(clip: Clip, segmenters: readonly Segmenter[], workDir: string): Promise<Uint8Array[]> {
  const frames: Uint8Array[] = [];
  await removeBackground({
    inputPath: clip.path,
    workDir,
    options: { output_codec: 'h264', refine_foreground_edges: true },
    segmenters,
    maxSeconds: 3600,
    timeoutMs: 600_000,
    onMatte: (index, alpha) => (frames[index] = Uint8Array.from(alpha)),
  });
  return frames;
}

// The webcam clip's person, cut out with its reference alpha, `scale` of the room's height, walking
// from left to right on a static background, feet near the floor line: the composite video and its
// exact alpha.
async function smallPersonClip(source: Clip, reference: Uint8Array[], scale: number, dir: string): Promise<{ clip: Clip; truth: Uint8Array[] }> {
  const alphaPath = join(dir, `${source.name}-alpha.gray`);
  writeFileSync(alphaPath, Buffer.concat(reference.map((frame) => Buffer.from(frame))));
  const h = Math.round((ROOM.height * scale) / 2) * 2;
  const w = Math.round((source.width * h) / source.height / 2) * 2;
  const seconds = reference.length / 30;
  const x = `20+(W-w-40)*t/${seconds.toFixed(3)}`;
  const y = `H-h-12`;
  const name = `${source.name}-small-${Math.round(scale * 100)}`;
  const path = join(dir, `${name}.mp4`);
  const truthPath = join(dir, `${name}.gray`);
  await run('ffmpeg', [
    '-v', 'error', '-y',
    '-i', source.path,
    '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${source.width}x${source.height}`, '-r', '30', '-i', alphaPath,
    '-loop', '1', '-framerate', '30', '-t', seconds.toFixed(3), '-i', await roomPicture(dir),
    '-f', 'lavfi', '-i', `color=black:s=${ROOM.width}x${ROOM.height}:r=30:d=${seconds.toFixed(3)},format=gray`,
    '-filter_complex',
    [
      `[0:v]format=rgb24,scale=${w}:${h}[person]`,
      `[1:v]scale=${w}:${h},split[a1][a2]`,
      `[person][a1]alphamerge[cut]`,
      `[2:v][cut]overlay=x='${x}':y='${y}':eval=frame:shortest=1:format=rgb,format=yuv420p[composite]`,
      `[3:v][a2]overlay=x='${x}':y='${y}':eval=frame:shortest=1[truth]`,
    ].join(';'),
    '-map', '[composite]', '-frames:v', String(reference.length), '-c:v', 'libx264', '-crf', '12', '-preset', 'fast', path,
    '-map', '[truth]', '-frames:v', String(reference.length), '-f', 'rawvideo', '-pix_fmt', 'gray', truthPath,
  ]);
  const bytes = readFileSync(truthPath);
  const frameBytes = ROOM.width * ROOM.height;
  const truth = Array.from({ length: bytes.length / frameBytes }, (_, i) => new Uint8Array(bytes.subarray(i * frameBytes, (i + 1) * frameBytes)));
  return { clip: { name, path, ...ROOM }, truth };
}

// A still, room-like background: a wall's light falloff and some texture.
async function roomPicture(dir: string): Promise<string> {
  const path = join(dir, 'room.png');
  if (existsSync(path)) return path;
  const source = `gradients=s=${ROOM.width}x${ROOM.height}:c0=0x6d5d4b:c1=0xc9c2b3:x0=0:y0=0:x1=${ROOM.width}:y1=${ROOM.height},noise=alls=6:allf=0,format=rgb24`;
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-frames:v', '1', path]);
  return path;
}

// Three frames of the clip, its matte composited on green, as PNGs for the eye.
async function greenComposites(clip: Clip, alpha: Uint8Array[], label: string, dir: string): Promise<string[]> {
  const out = join(REPORTS, label);
  mkdirSync(out, { recursive: true });
  const alphaPath = join(dir, `${clip.name}-${label}-matte.gray`);
  writeFileSync(alphaPath, Buffer.concat(alpha.map((frame) => Buffer.from(frame))));
  const picks = [0, Math.floor(alpha.length / 2), alpha.length - 1];
  const written: string[] = [];
  for (const frame of picks) {
    const png = join(out, `${clip.name}-frame${frame}-green.png`);
    await run('ffmpeg', [
      '-v', 'error', '-y',
      '-i', clip.path,
      '-f', 'rawvideo', '-pix_fmt', 'gray', '-s', `${clip.width}x${clip.height}`, '-r', '30', '-i', alphaPath,
      '-f', 'lavfi', '-i', `color=0x00b140:s=${clip.width}x${clip.height}:r=30:d=${(alpha.length / 30).toFixed(3)}`,
      '-filter_complex', `[0:v]format=rgb24[rgb];[rgb][1:v]alphamerge[cut];[2:v][cut]overlay=format=rgb:shortest=1,select=eq(n\\,${frame})`,
      '-frames:v', '1', png,
    ]);
    written.push(png);
  }
  return written;
}

function row(name: string, score: MatteScore): string {
  return `${name.padEnd(22)} ${String(score.frames).padStart(6)} ${score.meanIou.toFixed(4).padStart(9)} ${score.worstIou.toFixed(4).padStart(10)} ${score.mae.toFixed(4).padStart(8)} ${score.flicker.toFixed(5).padStart(9)}`;
}

async function main(): Promise<void> {
  if (!existsSync(MEDIA)) {
    console.log(`bench:matting-quality skipped: ${MEDIA} is absent (the real test media live outside the repo)`);
    return;
  }
  const label = option('label', 'latest');
  const dir = mkdtempSync(join(tmpdir(), 'vj-bench-matting-quality-'));
  const models = await loadMattingModels({ cacheDir: join(tmpdir(), 'vj-models'), executionProviders: ['cpu'], intraOpThreads: 1 });
  const person = models.segmentersFor(true);
  const rows: string[] = [];
  try {
    for (const file of CLIPS) {
      const source: Clip = { name: basename(file, '.mkv'), path: join(MEDIA, file), ...(await probeSize(join(MEDIA, file))) };
      // The reference: this pipeline at its best settings (refinement on), checked by eye on green.
      const reference = await matte(source, person, join(dir, `${source.name}-reference`));
      await greenComposites({ ...source, name: `${source.name}-reference` }, reference, label, dir);
      rows.push(row(`${source.name} (webcam)`, scoreMattes(await matte(source, person, join(dir, `${source.name}-now`)), reference)));
      for (const scale of SCALES) {
        const { clip, truth } = await smallPersonClip(source, reference, scale, dir);
        const alpha = await matte(clip, person, join(dir, `${clip.name}-work`));
        rows.push(row(clip.name, scoreMattes(alpha, truth)));
        await greenComposites(clip, alpha, label, dir);
      }
    }
    console.log(`\nmatting quality (${label}): the pipeline's matte against the reference, refinement on`);
    console.log(`${'clip'.padEnd(22)} ${'frames'.padStart(6)} ${'mean IoU'.padStart(9)} ${'worst IoU'.padStart(10)} ${'MAE'.padStart(8)} ${'flicker'.padStart(9)}`);
    for (const line of rows) console.log(line);
    console.log(`\ngreen composites: ${join(REPORTS, label)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
