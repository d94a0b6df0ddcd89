import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import type { ServiceProcess } from '../../scripts/stack/service-process';
import { numberArg, runBench, stringArg, withBenchStack, type BenchStack } from '../support/bench-stack';

// bench/long-video (issue 40, decision 0101): one long background removal through the whole stack,
// matted whole by one worker (the baseline), then cut into segments and run by 1, 2 and 3 workers,
// each in the same run. Prints the time to COMPLETED, the speed-up against one worker, the join's
// share, each run's peak memory of a worker (its process and its ffmpeg together) and the largest
// working folder of one delivery; then the seams: the IoU and flicker of the frames within a second of
// each boundary against the whole run's same frames, and the flicker midway between boundaries.
//
// Usage: npm run bench:long-video [-- --seconds 600 --workers 1,2,3 --size 1280x720 --segment 20 --warmup 4]
// The person is the webcam clip of ../shared/media looped (a colour test picture without it).

const run = promisify(execFile);
const SHARED_MEDIA = join(__dirname, '..', '..', '..', 'shared', 'media');
const FPS = 30;
// The seams are compared at this size: the alphas of a 10-minute run at 1280x720 do not fit in memory.
const COMPARE = { width: 320, height: 180 };

interface RunFigures {
  label: string;
  seconds: number;
  joinShare: number | null;
  peakWorkerMiB: number;
  peakDeliveryMiB: number;
  boundaries: number[];
  resultPath: string;
}

async function makeClip(path: string, seconds: number, size: string): Promise<void> {
  const person = join(SHARED_MEDIA, 'video', 'again.mkv');
  const picture = existsSync(person) ? ['-stream_loop', '-1', '-i', person] : ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${FPS}`];
  await run('ffmpeg', [
    '-v', 'error', '-y', ...picture, '-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000',
    '-map', '0:v', '-map', '1:a', '-t', String(seconds), '-vf', `scale=${size.replace('x', ':')},fps=${FPS}`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-g', String(2 * FPS), '-pix_fmt', 'yuv420p', '-c:a', 'aac', path,
  ], { maxBuffer: 1 << 20 });
}

async function main(): Promise<void> {
  const seconds = numberArg('--seconds', 600);
  const size = stringArg('--size', '1280x720');
  const workers = stringArg('--workers', '1,2,3').split(',').map(Number);
  const segment = numberArg('--segment', 20);
  const warmup = numberArg('--warmup', 4);
  const common = { BACKGROUND_REMOVAL_MAX_SECONDS: String(Math.max(600, Math.ceil(seconds) + 1)), BACKGROUND_REMOVAL_SEGMENT_SECONDS: String(segment), BACKGROUND_REMOVAL_WARMUP_SECONDS: String(warmup) };
  // The clip, the results and the workers' working folders outlive each run's stack.
  const out = mkdtempSync(join(tmpdir(), 'vj-long-video-'));
  try {
    const clip = join(out, 'long.mp4');
    await makeClip(clip, seconds, size);
    const runs: RunFigures[] = [];
    const runOn = async (label: string, env: NodeJS.ProcessEnv) => {
      const workDir = join(out, `work-${runs.length}`);
      mkdirSync(workDir);
      await withBenchStack({ ...common, ...env, WORK_DIR: workDir }, async (bench) => void runs.push(await timedJob(bench, clip, label, out, workDir)));
    };
    // The baseline: segmenting off (its threshold at the limit), one worker.
    await runOn('whole, 1 worker', { RENDER_WORKERS: '1', BACKGROUND_REMOVAL_SEGMENT_AFTER_SECONDS: common.BACKGROUND_REMOVAL_MAX_SECONDS });
    for (const count of workers) await runOn(`segments, ${count} worker${count > 1 ? 's' : ''}`, { RENDER_WORKERS: String(count), BACKGROUND_REMOVAL_SEGMENT_AFTER_SECONDS: String(Math.min(60, Math.floor(seconds / 2))) });
    await report(runs, { seconds, size, segment, warmup });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function report(runs: RunFigures[], { seconds, size, segment, warmup }: { seconds: number; size: string; segment: number; warmup: number }): Promise<void> {
  const [whole, ...segmented] = runs;
  const one = segmented[0]!;
  console.log(`\nbackground removal, ${size} ${seconds} s at ${FPS} fps, segments of ${segment} s with ${warmup} s of warm-up`);
  console.log('run                    time to COMPLETED   vs 1 worker   vs whole   join share   peak worker   peak delivery folder');
  for (const figures of runs) {
    const vsOne = figures === whole ? '' : (one.seconds / figures.seconds).toFixed(2);
    console.log(
      `${figures.label.padEnd(22)} ${figures.seconds.toFixed(1).padStart(8)} s         ${vsOne.padStart(5)}        ${(whole!.seconds / figures.seconds).toFixed(2).padStart(5)}      ${figures.joinShare === null ? '   -' : `${(100 * figures.joinShare).toFixed(1)} %`}      ${figures.peakWorkerMiB.toFixed(0).padStart(5)} MiB   ${figures.peakDeliveryMiB.toFixed(0).padStart(6)} MiB`,
    );
  }
  const cores = (await run('nproc')).stdout.trim();
  console.log(`(${cores} cores here: past ${cores} workers the speed-up is bounded by the cores, not by the segments)`);
  const last = segmented.at(-1)!;
  console.log(`\nseams of "${last.label}" against the whole run, ${last.boundaries.length} boundaries, alphas compared at ${COMPARE.width}x${COMPARE.height}`);
  const seams = await seamFigures(whole!.resultPath, last.resultPath, last.boundaries, seconds * FPS);
  console.log(`  IoU of the frames within 1 s of a boundary: mean ${seams.iouMean.toFixed(4)}, worst boundary ${seams.iouWorst.toFixed(4)} (frame ${seams.worstBoundary})`);
  console.log(`  flicker within 1 s of a boundary: segments ${seams.flickerAtSeams.toFixed(4)}, whole run ${seams.wholeFlickerAtSeams.toFixed(4)}; midway between boundaries: segments ${seams.flickerElsewhere.toFixed(4)}`);
}

// One job from create to COMPLETED, with its workers' peak memory and working folders sampled.
async function timedJob(bench: BenchStack, clip: string, label: string, out: string, workDir: string): Promise<RunFigures> {
  const { stack, headers } = bench;
  const videoUrl = await bench.upload(clip);
  const sampler = new WorkerSampler(stack.services, workDir);
  const started = process.hrtime.bigint();
  const created = (await (await fetch(`${stack.apiUrl}/v1/video-background-removal`, { method: 'POST', headers, body: JSON.stringify({ video_url: videoUrl, output_codec: 'vp9', refine_foreground_edges: false }) })).json()) as { job_id: string };
  let job: { status: string; result?: { files: { url: string }[] } };
  for (;;) {
    job = (await (await fetch(`${stack.apiUrl}/v1/video-background-removal/${created.job_id}`, { headers: { ...headers, prefer: 'wait=30' } })).json()) as typeof job;
    if (job.status !== 'PROCESSING') break;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  sampler.stop();
  if (job.status !== 'COMPLETED') throw new Error(`${label}: the job ended ${JSON.stringify(job)}`);
  const resultPath = join(out, `${label.replace(/\W+/g, '-')}.webm`);
  await writeFile(resultPath, Buffer.from(await (await fetch(job.result!.files[0]!.url)).arrayBuffer()));
  const { boundaries, joinShare } = await pieceFigures(stack.infra.env.DATABASE_URL!, created.job_id);
  console.log(`${label}: ${seconds.toFixed(1)} s`);
  return { label, seconds, joinShare, peakWorkerMiB: sampler.peakWorkerMiB, peakDeliveryMiB: sampler.peakDeliveryMiB, boundaries, resultPath };
}

// Where the segments start, and the join's share of the time to COMPLETED (from its send to the job's end).
async function pieceFigures(databaseUrl: string, jobId: string): Promise<{ boundaries: number[]; joinShare: number | null }> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ piece: string; from: string | null; sent_at: Date | null }>(`SELECT piece, work->'segment'->>'from' AS "from", sent_at FROM jobs.job_piece WHERE job_id = $1 ORDER BY index`, [jobId]);
    const [job] = (await db.query<{ created_at: Date; finished_at: Date }>('SELECT created_at, finished_at FROM jobs.job WHERE job_id = $1', [jobId])).rows;
    const joinRow = rows.find((row) => row.piece === 'join');
    const boundaries = rows.filter((row) => row.piece === 'segment' && Number(row.from) > 0).map((row) => Number(row.from));
    const joinShare = joinRow?.sent_at && job ? (job.finished_at.getTime() - joinRow.sent_at.getTime()) / (job.finished_at.getTime() - job.created_at.getTime()) : null;
    return { boundaries, joinShare };
  } finally {
    await db.end();
  }
}

// Samples every render worker's memory (the process and its ffmpeg together) and the size of each
// delivery's working folder (job-*, piece-* under the workers' temporary folder) every 200 ms.
class WorkerSampler {
  peakWorkerMiB = 0;
  peakDeliveryMiB = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly services: ServiceProcess[],
    private readonly workDir: string,
  ) {
    this.timer = setInterval(() => this.sample(), 200);
  }

  stop(): void {
    clearInterval(this.timer);
    this.sample();
  }

  private sample(): void {
    for (const worker of this.services.filter((service) => service.name.startsWith('render-worker') && service.child.pid)) {
      const pids = [worker.child.pid!, ...descendants(worker.child.pid!)];
      this.peakWorkerMiB = Math.max(this.peakWorkerMiB, pids.reduce((sum, pid) => sum + rssKiB(pid), 0) / 1024);
    }
    for (const name of safeList(this.workDir).filter((entry) => /^(job|piece)-/.test(entry))) this.peakDeliveryMiB = Math.max(this.peakDeliveryMiB, folderBytes(join(this.workDir, name)) / 1024 ** 2);
  }
}

function descendants(pid: number): number[] {
  const children = safeList(`/proc/${pid}/task`).flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
    } catch {
      return [];
    }
  });
  return children.flatMap((child) => [child, ...descendants(child)]);
}

function rssKiB(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function safeList(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

function folderBytes(path: string): number {
  let total = 0;
  for (const name of safeList(path)) {
    try {
      const entry = statSync(join(path, name));
      total += entry.isDirectory() ? folderBytes(join(path, name)) : entry.size;
    } catch {
      // Removed since it was listed.
    }
  }
  return total;
}

interface Seams {
  iouMean: number;
  iouWorst: number;
  worstBoundary: number;
  flickerAtSeams: number;
  wholeFlickerAtSeams: number;
  flickerElsewhere: number;
}

// The alphas of both results at the frames within a second of each boundary, and of the frames within
// a second of each point midway between boundaries ("elsewhere"), decoded at COMPARE's size.
async function seamFigures(wholePath: string, segmentedPath: string, boundaries: number[], frames: number): Promise<Seams> {
  const near = (centre: number) => Array.from({ length: 2 * FPS }, (_, i) => centre - FPS + i).filter((frame) => frame >= 0 && frame < frames);
  const starts = [0, ...boundaries, frames];
  const midway = starts.slice(0, -1).map((start, i) => Math.round((start + starts[i + 1]!) / 2));
  const seamFrames = boundaries.map(near);
  const otherFrames = midway.map(near);
  const wanted = [...new Set([...seamFrames.flat(), ...otherFrames.flat()])].sort((a, b) => a - b);
  const [whole, segmented] = await Promise.all([alphasAt(wholePath, wanted), alphasAt(segmentedPath, wanted)]);
  const ious = seamFrames.map((window) => window.map((frame) => iou(whole.get(frame)!, segmented.get(frame)!)).reduce((a, b) => a + b, 0) / window.length);
  const worst = Math.min(...ious);
  return {
    iouMean: ious.reduce((a, b) => a + b, 0) / ious.length,
    iouWorst: worst,
    worstBoundary: boundaries[ious.indexOf(worst)]!,
    flickerAtSeams: flicker(segmented, seamFrames),
    wholeFlickerAtSeams: flicker(whole, seamFrames),
    flickerElsewhere: flicker(segmented, otherFrames),
  };
}

// The alpha plane of the chosen frames of a VP9 WebM with alpha, scaled, by frame number.
async function alphasAt(path: string, wanted: number[]): Promise<Map<number, Uint8Array>> {
  const size = COMPARE.width * COMPARE.height;
  const select = ranges(wanted).map(([from, to]) => `between(n\\,${from}\\,${to})`).join('+');
  const ffmpeg = spawn('ffmpeg', ['-v', 'error', '-c:v', 'libvpx-vp9', '-i', path, '-vf', `select='${select}',alphaextract,scale=${COMPARE.width}:${COMPARE.height}`, '-vsync', '0', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  for await (const chunk of ffmpeg.stdout) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  const found = new Map<number, Uint8Array>();
  wanted.forEach((frame, i) => {
    if ((i + 1) * size <= bytes.length) found.set(frame, bytes.subarray(i * size, (i + 1) * size));
  });
  if (found.size !== wanted.length) throw new Error(`${path}: ${found.size} of ${wanted.length} frames decoded`);
  return found;
}

// Ascending frame numbers as runs of consecutive ones, [first, last].
function ranges(sorted: number[]): [number, number][] {
  const found: [number, number][] = [];
  for (const frame of sorted) {
    const last = found.at(-1);
    if (last && frame === last[1] + 1) last[1] = frame;
    else found.push([frame, frame]);
  }
  return found;
}

function iou(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    const inA = a[i]! >= 128;
    const inB = b[i]! >= 128;
    if (inA && inB) both++;
    if (inA || inB) either++;
  }
  return either === 0 ? 1 : both / either;
}

// The mean absolute change of alpha from one frame to the next within each window, 0 to 1.
function flicker(alphas: Map<number, Uint8Array>, windows: number[][]): number {
  let sum = 0;
  let count = 0;
  for (const window of windows) {
    for (let i = 1; i < window.length; i++) {
      const a = alphas.get(window[i - 1]!)!;
      const b = alphas.get(window[i]!)!;
      let change = 0;
      for (let p = 0; p < a.length; p++) change += Math.abs(a[p]! - b[p]!);
      sum += change / (255 * a.length);
      count++;
    }
  }
  return count ? sum / count : 0;
}

runBench(main);
