import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import * as ort from 'onnxruntime-node';
import { convertTfliteToOnnx } from '../src';
import { randomArray } from '../src/testing/nd-array';
import { LANDSCAPE_MODEL, SQUARE_MODEL, SelfieModel } from '../src/testing/selfie-models';

// Converts both MediaPipe selfie segmentation models and times one frame at a time through
// onnxruntime-node on CPU, with default session options unless --threads is given.
// Usage: node scripts/run-ts.cjs libs/tflite-onnx/bench/measure-inference.ts [--frames 300] [--threads 2]

function option(name: string, fallback?: number): number | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

async function measure(model: SelfieModel, frames: number, threads: number | undefined): Promise<void> {
  const convertStart = performance.now();
  const onnxModel = convertTfliteToOnnx(readFileSync(model.path));
  const convertMs = performance.now() - convertStart;
  const session = await ort.InferenceSession.create(onnxModel, threads ? { intraOpNumThreads: threads } : {});
  const frame = randomArray([1, model.height, model.width, 3], 1, 1);
  const feeds = { [model.input]: new ort.Tensor('float32', frame.data, frame.shape) };
  for (let i = 0; i < 20; i++) await session.run(feeds);
  const times: number[] = [];
  for (let i = 0; i < frames; i++) {
    const start = performance.now();
    await session.run(feeds);
    times.push(performance.now() - start);
  }
  await session.release();
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(
    `${basename(model.path)} ${model.width}x${model.height}: conversion ${convertMs.toFixed(0)} ms; ` +
      `per frame median ${percentile(times, 0.5).toFixed(2)} ms, mean ${mean.toFixed(2)}, p90 ${percentile(times, 0.9).toFixed(2)}, min ${times[0].toFixed(2)} (${frames} frames)`,
  );
}

async function main(): Promise<void> {
  const frames = option('--frames', 300) ?? 300;
  const threads = option('--threads');
  for (const model of [SQUARE_MODEL, LANDSCAPE_MODEL]) await measure(model, frames, threads);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
