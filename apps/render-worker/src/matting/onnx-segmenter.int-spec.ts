/** @jest-environment ./test/onnx-test-environment.cjs */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { OnnxSegmenter } from './onnx-segmenter';
import { preparePersonModels } from './person-model';
import type { MattingModelSpec } from './matting-model';

// The person model on ONNX Runtime in its worker thread.

let dir: string;
let specs: MattingModelSpec[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vj-onnx-'));
  specs = await preparePersonModels(dir);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('OnnxSegmenter', () => {
  it('falls back to the CPU when CUDA is not installed, and answers one probability per input pixel', async () => {
    const segmenter = await OnnxSegmenter.open(specs[1], { executionProviders: ['cuda', 'cpu'], intraOpThreads: 1 });
    try {
      expect(segmenter.executionProvider).toBe('cpu');
      const mask = await segmenter.segment(new Float32Array(256 * 144 * 3).fill(0.5));
      expect(mask).toHaveLength(256 * 144);
      expect(Math.min(...mask)).toBeGreaterThanOrEqual(0);
      expect(Math.max(...mask)).toBeLessThanOrEqual(1);
    } finally {
      await segmenter.release();
    }
  });

  it('replaces a worker thread that died, so the next frame is answered', async () => {
    const segmenter = await OnnxSegmenter.open(specs[0], { executionProviders: ['cpu'], intraOpThreads: 1 });
    try {
      const input = new Float32Array(256 * 256 * 3);
      const before = await segmenter.segment(input);
      await (segmenter as unknown as { worker: Worker }).worker.terminate();
      expect(Array.from(await segmenter.segment(input))).toEqual(Array.from(before));
    } finally {
      await segmenter.release();
    }
  });

  it('refuses to open a file that is not a model, naming it', async () => {
    const spec = { ...specs[0], name: 'general', path: join(dir, 'missing.onnx') };
    await expect(OnnxSegmenter.open(spec, { executionProviders: ['cpu'], intraOpThreads: 1 })).rejects.toThrow(/Model general could not be opened/);
  });
});
