import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OutputCodec } from '@vj/contracts';
import { loadMattingModels } from '../../apps/render-worker/src/matting/load-matting-models';
import { removeBackground } from '../../apps/render-worker/src/matting/remove-background';
import { numberArg, runBench, stringArg } from '../support/bench-stack';
import { makeClip, type People } from './clips';

// bench/bg-removal/process-cpu: where a background-removal job's CPU goes, per frame: the worker's own
// process (its thread and the model's) and its ffmpeg decoder and encoder, for each codec with
// refinement off and on, the least of the runs (interleaved). CPU time is steadier than
// bench:bg-removal's frames per second on this shared 2-core machine, and shows what refinement itself
// costs the worker, and with `--tracking off,on` what person tracking costs each side. Usage:
// npm run bench:matting-cpu [-- --runs 3 --seconds 10 --size 640x480 --people webcam|small|two
//   --tracking on|off|off,on --codecs h264,vp9]

// Clock ticks a second of /proc's CPU times (Linux's USER_HZ).
const TICKS = 100;


// CPU milliseconds of this process's children that have ended (the ffmpeg runs), from /proc.
function endedChildrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS;
}

interface Cost {
  fps: number;
  worker: number;
  ffmpeg: number;
}

async function main(): Promise<void> {
  const runs = numberArg('--runs', 3);
  const seconds = numberArg('--seconds', 10);
  const size = stringArg('--size', '640x480');
  const people = stringArg('--people', 'webcam') as People;
  const trackings = stringArg('--tracking', 'on').split(',').map((value) => value === 'on');
  const codecs = stringArg('--codecs', 'h264,vp9').split(',') as OutputCodec[];
  const dir = mkdtempSync(join(tmpdir(), 'vj-bench-cpu-'));
  try {
    const clip = join(dir, 'clip.mp4');
    const content = await makeClip(clip, size, seconds, people);
    const models = await loadMattingModels({ cacheDir: join(dir, 'models'), executionProviders: ['cpu'], intraOpThreads: 1 });
    const segmenters = models.segmentersFor(true);
    const cases = codecs.flatMap((codec) => trackings.flatMap((tracking) => [false, true].map((refine) => ({ codec, refine, tracking }))));
    const costs = cases.map(() => [] as Cost[]);
    // A first job warms the model and the JIT; it is not counted.
    for (let i = 0; i <= runs; i++) {
      for (const [index, { codec, refine, tracking }] of cases.entries()) {
        const [ffmpegBefore, workerBefore, started] = [endedChildrenCpuMs(), process.cpuUsage(), performance.now()];
        const options = { output_codec: codec, refine_foreground_edges: refine };
        const { frames } = await removeBackground({ inputPath: clip, workDir: join(dir, `work-${i}-${index}`), options, segmenters, maxSeconds: 3600, timeoutMs: 3_600_000, tracking });
        const worker = process.cpuUsage(workerBefore);
        if (i > 0) {
          costs[index].push({
            fps: (frames * 1000) / (performance.now() - started),
            worker: (worker.user + worker.system) / 1000 / frames,
            ffmpeg: (endedChildrenCpuMs() - ffmpegBefore) / frames,
          });
        }
      }
    }
    console.log(`matting CPU per frame, ${size}, ${seconds} s, ${content}; least of ${runs} runs (fps: the best run)`);
    const least = (values: Cost[], key: keyof Cost) => (key === 'fps' ? Math.max : Math.min)(...values.map((cost) => cost[key]));
    for (const [index, { codec, refine, tracking }] of cases.entries()) {
      const [fps, worker, ffmpeg] = [least(costs[index], 'fps'), least(costs[index], 'worker'), least(costs[index], 'ffmpeg')];
      const withoutRefinement = refine ? least(costs[index - 1], 'worker') : null;
      const adds = withoutRefinement === null ? '' : `   refinement adds ${(worker - withoutRefinement).toFixed(2)} ms to the worker`;
      const label = trackings.length > 1 ? ` tracking ${tracking ? 'on ' : 'off'}` : '';
      console.log(`  ${codec.padEnd(4)}${label} refine ${String(refine).padEnd(5)}  worker ${worker.toFixed(2)} ms   ffmpeg ${ffmpeg.toFixed(2)} ms   ${fps.toFixed(1)} fps${adds}`);
    }
    // The same codec and refinement without tracking sits two cases before (see `cases`).
    if (trackings.length > 1) {
      for (const [index, { codec, refine, tracking }] of cases.entries()) {
        if (!tracking) continue;
        const [off, on] = [costs[index - 2], costs[index]];
        const change = (key: 'worker' | 'ffmpeg') => (least(on, key) - least(off, key)).toFixed(2);
        console.log(`  ${codec.padEnd(4)} refine ${String(refine).padEnd(5)}  tracking adds ${change('worker')} ms to the worker, ${change('ffmpeg')} ms to ffmpeg`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
