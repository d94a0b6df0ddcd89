/** @jest-environment ./test/onnx-test-environment.cjs */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
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

  it("leaves the caller's tensor its own, and gives each of several runs in flight the mask of its own input", async () => {
    const segmenter = await OnnxSegmenter.open(specs[1], { executionProviders: ['cpu'], intraOpThreads: 1 });
    try {
      // Two pictures the model answers differently: flat grey, and stripes.
      const grey = new Float32Array(256 * 144 * 3).fill(0.5);
      const stripes = Float32Array.from(grey, (_, i) => ((i >> 4) & 1 ? 1 : -1));
      const [alone, stripesAlone] = [await segmenter.segment(grey), await segmenter.segment(stripes)];
      // The input buffers are moved to the model's thread and back: the caller's arrays never are.
      const tensor = new Float32Array(grey);
      const first = segmenter.segment(tensor);
      tensor.set(stripes);
      const second = segmenter.segment(tensor);
      const third = segmenter.segment(grey);
      expect(tensor).toHaveLength(256 * 144 * 3);
      expect(tensor.buffer.byteLength).toBe(256 * 144 * 3 * 4);
      const masks = await Promise.all([first, second, third]);
      expect(alone).not.toEqual(stripesAlone);
      expect(masks).toEqual([alone, stripesAlone, alone]);
    } finally {
      await segmenter.release();
    }
  });

  it('tries WebGPU, which is built into the binding, and uses the CPU where no GPU adapter answers', async () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const segmenter = await OnnxSegmenter.open(specs[1], { executionProviders: ['webgpu', 'cpu'], intraOpThreads: 1 });
    try {
      expect(['webgpu', 'cpu']).toContain(segmenter.executionProvider);
      // Tried and refused (no adapter), never skipped as not installed.
      if (segmenter.executionProvider === 'cpu') expect(log).toHaveBeenCalledWith(expect.stringMatching(/webgpu unavailable .*using cpu/s));
      expect(await segmenter.segment(new Float32Array(256 * 144 * 3).fill(0.5))).toHaveLength(256 * 144);
    } finally {
      log.mockRestore();
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

  it('runs a model that shares its device only while no other thread holds the device', async () => {
    const lock = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(join(__dirname, 'onnx-worker.cjs'));
    const answers: { id: number; ok: boolean }[] = [];
    worker.on('message', (answer: { id: number; ok: boolean }) => answers.push(answer));
    const answered = async (id: number) => {
      while (!answers.some((answer) => answer.id === id)) await new Promise((resolve) => setTimeout(resolve, 10));
      return answers.find((answer) => answer.id === id);
    };
    try {
      worker.postMessage({ id: 1, kind: 'open', path: specs[1].path, deviceLock: lock.buffer, options: { executionProviders: ['cpu'] } });
      expect(await answered(1)).toMatchObject({ ok: true });
      Atomics.store(lock, 0, 12345); // another thread's run
      worker.postMessage({ id: 2, kind: 'run', input: new Float32Array(256 * 144 * 3), dims: [1, 3, 144, 256] });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answers.some((answer) => answer.id === 2)).toBe(false);
      Atomics.store(lock, 0, 0);
      Atomics.notify(lock, 0);
      expect(await answered(2)).toMatchObject({ ok: true });
      expect(Atomics.load(lock, 0)).toBe(0);
    } finally {
      await worker.terminate();
    }
  });

  it('refuses to open a file that is not a model, naming it', async () => {
    const spec = { ...specs[0], name: 'general', path: join(dir, 'missing.onnx') };
    await expect(OnnxSegmenter.open(spec, { executionProviders: ['cpu'], intraOpThreads: 1 })).rejects.toThrow(/Model general could not be opened/);
  });

  it("keeps ONNX Runtime's telemetry off: a worker process leaves no /tmp/mat-debug-<pid>.log", async () => {
    // In a process of its own: the library reads the variable once, when its first session starts.
    const script = join(dir, 'open-model.ts');
    await writeFile(
      script,
      `import { OnnxSegmenter } from ${JSON.stringify(join(__dirname, 'onnx-segmenter'))};
      OnnxSegmenter.open(${JSON.stringify(specs[1])}, { executionProviders: ['cpu'], intraOpThreads: 1 })
        .then((segmenter) => segmenter.release())
        .then(() => console.log(process.pid));`,
    );
    const env = { ...process.env };
    delete env.ORT_DISABLE_TELEMETRY;
    const { stdout } = await promisify(execFile)(process.execPath, [join(__dirname, '../../../../scripts/run-ts.cjs'), script], { env });
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    expect(existsSync(`/tmp/mat-debug-${pid}.log`)).toBe(false);
  });
});
