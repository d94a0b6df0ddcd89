import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import type { MattingModelSpec, Segmenter } from './matting-model';

export interface OnnxSettings {
  // Execution providers in order of preference; CPU is always the last resort.
  executionProviders: readonly string[];
  // Threads one inference may use; 0 lets ONNX Runtime choose.
  intraOpThreads: number;
}

// The explicit fallback chain (STYLE.md habit 12): each provider is tried alone, in order, and the
// first that opens the model is used, so a CUDA build uses the GPU and any other build the CPU.
export function providerChain(preferred: readonly string[]): string[] {
  return [...new Set([...preferred.filter((name) => name !== 'cpu'), 'cpu'])];
}

// Providers other than the CPU live in libraries beside the native binding (onnxruntime-node's
// install script fetches CUDA's; we skip that script, see scripts/ensure-prerequisites.sh). Without
// the library a provider is not even tried, which keeps ONNX Runtime's own error logs quiet.
function providerInstalled(provider: string): boolean {
  if (provider === 'cpu') return true;
  const binding = join(dirname(require.resolve('onnxruntime-node/package.json')), 'bin', 'napi-v6', process.platform, process.arch);
  return existsSync(join(binding, `libonnxruntime_providers_${provider}.so`));
}

interface WorkerAnswer {
  id: number;
  ok: boolean;
  mask?: Float32Array;
  error?: string;
}

// A model served by its own worker thread (onnx-worker.cjs): segment() hands the tensor over and
// resolves with the mask, while this thread goes on with other work.
export class OnnxSegmenter implements Segmenter {
  private readonly waiting = new Map<number, { resolve: (mask: Float32Array) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private worker!: Worker;
  // Set when the worker thread died; the next segment() starts a new one.
  private dead: Promise<void> | null = null;
  private openMessage: object | null = null;
  executionProvider = 'none';

  private constructor(readonly spec: MattingModelSpec) {
    this.spawn();
  }

  static async open(spec: MattingModelSpec, settings: OnnxSettings): Promise<OnnxSegmenter> {
    const segmenter = new OnnxSegmenter(spec);
    const failures: string[] = [];
    for (const provider of providerChain(settings.executionProviders)) {
      if (!providerInstalled(provider)) {
        failures.push(`${provider} not installed`);
        continue;
      }
      const openMessage = {
        kind: 'open',
        path: spec.path,
        options: {
          executionProviders: [provider],
          intraOpNumThreads: settings.intraOpThreads,
          // One frame at a time: spinning threads between runs only takes CPU from ffmpeg.
          extra: { session: { intra_op: { allow_spinning: '0' } } },
          graphOptimizationLevel: 'all',
        },
      };
      try {
        await segmenter.ask(openMessage);
        if (failures.length > 0) new Logger('matting').log(`${spec.name}: ${failures.join('; ')}; using ${provider}`);
        segmenter.executionProvider = provider;
        segmenter.openMessage = openMessage;
        return segmenter;
      } catch (error) {
        failures.push(`${provider} unavailable (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    await segmenter.release();
    throw new Error(`Model ${spec.name} could not be opened: ${failures.join('; ')}`);
  }

  async segment(input: Float32Array): Promise<Float32Array> {
    const { spec } = this;
    if (this.dead) await this.dead;
    const dims = spec.layout === 'nhwc' ? [1, spec.height, spec.width, 3] : [1, 3, spec.height, spec.width];
    // Copied by postMessage: the caller may refill `input` as soon as this returns.
    const mask = await this.ask({ kind: 'run', input, dims });
    if (mask.length !== spec.width * spec.height) {
      throw new Error(`Model ${spec.name} returned ${mask.length} values for a ${spec.width}x${spec.height} input`);
    }
    if (spec.output === 'logit') for (let i = 0; i < mask.length; i++) mask[i] = 1 / (1 + Math.exp(-mask[i]));
    return mask;
  }

  async release(): Promise<void> {
    this.openMessage = null; // an exit from here on is wanted
    await this.worker.terminate();
  }

  private spawn(): void {
    const worker = new Worker(join(__dirname, 'onnx-worker.cjs'));
    this.worker = worker;
    worker.on('message', (answer: WorkerAnswer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) worker.unref();
      if (answer.ok) waiter?.resolve(answer.mask ?? new Float32Array(0));
      else waiter?.reject(new Error(`Model ${this.spec.name}: ${answer.error}`));
    });
    worker.on('error', (error) => new Logger('matting').error(`${this.spec.name}: worker thread failed: ${error.message}`));
    // A thread that dies fails the frames it had (their jobs fail and are retried) and is replaced
    // before the next frame, so one crash never takes the model away from the jobs after it.
    worker.on('exit', (code) => {
      const error = new Error(`Model ${this.spec.name}: its worker thread exited (${code})`);
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
      const reopen = this.openMessage;
      if (!reopen) return;
      this.dead = (async () => {
        this.spawn();
        await this.ask(reopen);
        this.dead = null;
      })();
      this.dead.catch(() => undefined);
    });
    // An idle model must not keep the process alive; one at work must (see ask()).
    worker.unref();
  }

  private ask(message: object): Promise<Float32Array> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, ...message });
    });
  }
}
