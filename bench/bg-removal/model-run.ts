import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { OnnxSegmenter } from '../../apps/render-worker/src/matting/onnx-segmenter';
import { preparePersonModels } from '../../apps/render-worker/src/matting/person-model';
import { numberArg, runBench, stringArg } from '../support/bench-stack';
import { median, percentile } from '../support/stats';

// bench/bg-removal/model-run: how long one run of each person model takes as the pipeline sees it
// (the hop to the model's thread included), on each execution provider asked for, next to the CPU
// with one thread measured in the same run. Where a provider cannot open the model here (no GPU, no
// driver) the worker's fallback opens it on the CPU, and the row says so.
// Usage: npm run bench:matting-model [-- --providers webgpu,cuda --runs 300]

async function main(): Promise<void> {
  const runs = numberArg('--runs', 300);
  const providers = ['cpu', ...stringArg('--providers', 'webgpu').split(',').filter((name) => name && name !== 'cpu')];
  const dir = mkdtempSync(join(tmpdir(), 'vj-bench-model-'));
  console.log(`${cpus().length} CPU cores (${cpus()[0]?.model ?? 'unknown'}); ${runs} runs a model, after 20 not counted`);
  const baseline = new Map<string, number>();
  try {
    for (const provider of providers) {
      for (const spec of await preparePersonModels(join(dir, 'models'))) {
        const segmenter = await OnnxSegmenter.open(spec, { executionProviders: [provider], intraOpThreads: 1 });
        try {
          const { width, height } = segmenter.spec;
          const input = new Float32Array(width * height * 3).map((_, i) => (i % 97) / 97);
          const times: number[] = [];
          for (let i = 0; i < runs + 20; i++) {
            const started = performance.now();
            await segmenter.segment(input);
            if (i >= 20) times.push(performance.now() - started);
          }
          const size = `${width}x${height}`;
          if (provider === 'cpu') baseline.set(size, median(times));
          const ratio = (baseline.get(size) ?? median(times)) / median(times);
          console.log(`  ${provider.padEnd(7)} (opened on ${segmenter.executionProvider})  ${size.padEnd(8)} p50 ${median(times).toFixed(2)} ms   p99 ${percentile(times, 99).toFixed(2)} ms   ${ratio.toFixed(2)}x the cpu's speed`);
        } finally {
          await segmenter.release();
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(main);
