import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { OUTPUT_CODECS, type OutputCodec } from '@vj/contracts';
import { loadMattingModels } from '../../apps/render-worker/src/matting/load-matting-models';
import { removeBackground } from '../../apps/render-worker/src/matting/remove-background';
import { numberArg, runBench, stringArg } from '../support/bench-stack';
import { makeClip, type People } from './clips';
import { codecBaseline } from './codec-baseline';
import { withPeakMemory, type PeakMemory } from '../support/peak-memory';
import { median } from '../support/stats';

// bench/bg-removal: frames per second of the whole matting pipeline (decode, person model, smoothing,
// matte, encode) on 640x480 and 1280x720 clips, next to a baseline measured in the same run: the same
// ffmpeg decode and encode with no inference. Prints both, and their ratio (median of the runs), and
// the pipeline's peak memory (compare --seconds 10 and 60: it should not grow with the clip).
// With --exports, also the job keeping its matte for exports and an export of it to the same codec
// (decision 0094), in the same runs: what keeping costs, and how fast an export goes against the job.
// Usage: npm run bench:bg-removal [-- --runs 3 --seconds 20 --sizes 640x480,1280x720 --threads 1
//   --people webcam|small|two --tracking on|off|off,on --codecs vp9,h264,prores,png_sequence --exports]
// (--threads: ONNX Runtime intra-op threads; ONNX_EXECUTION_PROVIDERS picks the provider.)

async function timed(work: () => Promise<{ frames: number }>): Promise<{ fps: number; memory: PeakMemory }> {
  const start = process.hrtime.bigint();
  const { result, memory } = await withPeakMemory(work);
  return { fps: result.frames / (Number(process.hrtime.bigint() - start) / 1e9), memory };
}

// The largest of the runs' peaks: what a worker must have room for.
function peaks(memories: PeakMemory[]): string {
  const most = (pick: (memory: PeakMemory) => number) => Math.max(...memories.map(pick)).toFixed(0);
  return `peak RSS: this process ${most((m) => m.selfMiB)} MiB (+${most((m) => m.selfGrowthMiB)} in the run), ffmpeg ${most((m) => m.childrenMiB)} MiB`;
}

async function main(): Promise<void> {
  const runs = numberArg('--runs', 3);
  const seconds = numberArg('--seconds', 20);
  const sizes = stringArg('--sizes', '640x480,1280x720').split(',');
  const chosen = stringArg('--people', 'webcam');
  const people: People = chosen === 'small' || chosen === 'two' ? chosen : 'webcam';
  // Crop the model's input to the person (the default) or not: 'off,on' measures both in one run.
  const trackings = stringArg('--tracking', 'on').split(',').map((value) => value === 'on');
  const exports = process.argv.includes('--exports');
  const dir = mkdtempSync(join(tmpdir(), 'vj-bench-bg-'));
  const providers = (process.env.ONNX_EXECUTION_PROVIDERS ?? 'cuda,cpu').split(',');
  const models = await loadMattingModels({ cacheDir: join(dir, 'models'), executionProviders: providers, intraOpThreads: numberArg('--threads', 1) });
  const person = models.segmentersFor(true);
  console.log(`${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}); models: ${models.describe()}`);
  const outputs = stringArg('--codecs', OUTPUT_CODECS.join(',')).split(',');
  const codecs = OUTPUT_CODECS.filter((codec) => outputs.includes(codec)).flatMap((codec: OutputCodec) => [false, true].map((refine) => ({ codec, refine })));
  const rows: string[] = [];
  try {
    for (const size of sizes) {
      const input = join(dir, `clip-${size}.mp4`);
      const content = await makeClip(input, size, seconds, people);
      console.log(`\n${size}, ${seconds} s at 30 fps, ${content}`);
      for (const { codec, refine } of codecs) {
        const base: number[] = [];
        const jobs = trackings.map(() => [] as number[]);
        const memories = trackings.map(() => [] as PeakMemory[]);
        const kept: { keeping: number[]; exported: number[] } = { keeping: [], exported: [] };
        // Interleaved, baseline and each tracking setting in every run, so all see the same machine load.
        for (let i = 0; i < runs; i++) {
          const workDir = join(dir, `work-${size}-${codec}-${refine}-${i}`);
          base.push((await timed(() => codecBaseline(input, codec, refine, person, join(workDir, 'baseline')))).fps);
          for (const [t, tracking] of trackings.entries()) {
            const { fps, memory } = await timed(() => removeBackground({ inputPath: input, workDir: join(workDir, String(tracking)), options: { output_codec: codec, refine_foreground_edges: refine }, segmenters: person, maxSeconds: 3600, timeoutMs: 3_600_000, tracking }));
            jobs[t].push(fps);
            memories[t].push(memory);
          }
          if (exports) {
            const options = { output_codec: codec, refine_foreground_edges: refine };
            const matte = join(workDir, 'kept-matte.mkv');
            const common = { inputPath: input, options, segmenters: person, maxSeconds: 3600, timeoutMs: 3_600_000 };
            kept.keeping.push((await timed(() => removeBackground({ ...common, workDir: join(workDir, 'keeping'), keepMatteAt: matte }))).fps);
            kept.exported.push((await timed(() => removeBackground({ ...common, workDir: join(workDir, 'export'), fromMatte: matte }))).fps);
          }
          rmSync(workDir, { recursive: true, force: true });
        }
        for (const [t, tracking] of trackings.entries()) {
          const job = jobs[t];
          const row = `${size.padEnd(9)} ${codec.padEnd(4)} refine ${String(refine).padEnd(5)} tracking ${tracking ? 'on ' : 'off'}  pipeline ${median(job).toFixed(1).padStart(6)} fps   baseline ${median(base).toFixed(1).padStart(6)} fps   ratio ${(median(job) / median(base)).toFixed(2)}`;
          rows.push(row);
          console.log(`  ${row}   (runs: ${job.map((v) => v.toFixed(1)).join(', ')} / ${base.map((v) => v.toFixed(1)).join(', ')})`);
          const memory = `${size.padEnd(9)} ${codec.padEnd(4)} refine ${String(refine).padEnd(5)} tracking ${tracking ? 'on ' : 'off'}  ${peaks(memories[t])}`;
          rows.push(memory);
          console.log(`  ${memory}`);
        }
        if (exports) {
          const job = median(jobs[0]);
          const row = `${size.padEnd(9)} ${codec.padEnd(4)} refine ${String(refine).padEnd(5)} keeping the matte ${median(kept.keeping).toFixed(1).padStart(6)} fps (${(median(kept.keeping) / job).toFixed(2)} of the job)   export ${median(kept.exported).toFixed(1).padStart(6)} fps (${(median(kept.exported) / job).toFixed(1)}x the job, ${(median(kept.exported) / median(base)).toFixed(2)} of the baseline)`;
          rows.push(row);
          console.log(`  ${row}`);
        }
        if (trackings.length === 2) {
          // Each run's tracked fps over its untracked fps, taken back to back: the median of those.
          const change = median(jobs[1].map((value, i) => value / jobs[0][i] - 1)) * 100;
          const row = `${size.padEnd(9)} ${codec.padEnd(4)} refine ${String(refine).padEnd(5)} tracking ${trackings[1] ? 'on' : 'off'} vs ${trackings[0] ? 'on' : 'off'}: ${change >= 0 ? '+' : ''}${change.toFixed(1)} % fps`;
          rows.push(row);
          console.log(`  ${row}`);
        }
      }
    }
    console.log(`\nbg-removal, median of ${runs} runs (baseline: the same decode and encode, no inference)`);
    for (const row of rows) console.log(`  ${row}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
