import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { listSupportedBackends } from 'onnxruntime-node';
import type { MattingModelSpec, Segmenter } from './matting-model';

export interface OnnxSettings {
  // Execution providers in order of preference; CPU is always the last resort.
  executionProviders: readonly string[];
  // Threads one inference may use; 0 lets ONNX Runtime choose.
  intraOpThreads: number;
}

// The explicit fallback chain: each provider is tried alone, in order, and the first that opens the
// model is used: a GPU where its provider opens, the CPU everywhere else.
export function providerChain(preferred: readonly string[]): string[] {
  return [...new Set([...preferred.filter((name) => name !== 'cpu'), 'cpu'])];
}

// A provider is tried only where it can exist, which keeps ONNX Runtime's own error logs quiet: built
// into the native binding (the CPU's, and WebGPU's, which reaches a GPU through Vulkan), or a library
// beside it (CUDA's and TensorRT's, which onnxruntime-node's install script fetches from outside npm:
// we skip that script, see scripts/ensure-prerequisites.sh).
function providerInstalled(provider: string): boolean {
  if (listSupportedBackends().some((backend) => backend.name === provider && backend.bundled)) return true;
  const binding = join(dirname(require.resolve('onnxruntime-node/package.json')), 'bin', 'napi-v6', process.platform, process.arch);
  return existsSync(join(binding, `libonnxruntime_providers_${provider}.so`));
}

// ONNX Runtime's Linux build starts Microsoft's telemetry client (1DS) with its first session unless
// ORT_DISABLE_TELEMETRY is set: no part of our service, and it leaves an empty /tmp/mat-debug-<pid>.log
// behind every worker process. Set here, on the main thread (a worker thread's process.env is a copy
// that the native library never reads), before a model thread loads the library; an operator who
// sets the variable keeps their value.
function keepTelemetryOff(): void {
  process.env.ORT_DISABLE_TELEMETRY ??= '1';
}

// Providers whose sessions in one process share one device context that only one thread may use at a
// time (WebGPU: two model threads at once broke its command encoders on an H200, decision 0055).
const SHARED_CONTEXT_PROVIDERS = new Set(['webgpu']);
// Who uses that context now: a thread id, 0 when free (see onnx-worker.cjs).
const deviceLock = new Int32Array(new SharedArrayBuffer(4));

interface WorkerAnswer {
  id: number;
  ok: boolean;
  mask?: Float32Array;
  // A run's input buffer, handed back for the next run.
  input?: Float32Array<ArrayBuffer>;
  error?: string;
}

// Past this a model run is taken to hang: its thread is stopped and replaced.
const RUN_TIMEOUT_MS = 60_000;

// A model served by its own worker thread (onnx-worker.cjs): segment() hands the tensor over and
// resolves with the mask, while this thread goes on with other work.
export class OnnxSegmenter implements Segmenter {
  private readonly waiting = new Map<number, { resolve: (mask: Float32Array) => void; reject: (error: Error) => void; timer?: NodeJS.Timeout }>();
  private nextId = 0;
  // Input buffers free for a run. Each run's is moved to the model's thread and back with the answer
  // (postMessage's transfer list), as the mask is moved here: a frame's tensors are neither serialized
  // nor allocated again.
  private readonly freeInputs: Float32Array<ArrayBuffer>[] = [];
  private worker!: Worker;
  private exited = false;
  private reviving: Promise<void> | null = null;
  // The message that opened the model; null once released.
  private openMessage: object | null = null;
  executionProvider = 'none';

  private constructor(readonly spec: MattingModelSpec) {
    this.spawn();
  }

  // Opens the model with the first provider of the chain that works, and checks it on one blank
  // frame: a model that cannot run, or answers the wrong size, stops the worker from starting.
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
        deviceLock: SHARED_CONTEXT_PROVIDERS.has(provider) ? deviceLock.buffer : undefined,
        options: {
          executionProviders: [provider],
          intraOpNumThreads: settings.intraOpThreads,
          // One frame at a time: spinning threads between runs only takes CPU from ffmpeg.
          extra: { session: { intra_op: { allow_spinning: '0' } } },
          graphOptimizationLevel: 'all',
        },
      };
      try {
        if (segmenter.exited) segmenter.spawn();
        await segmenter.ask(openMessage);
        segmenter.openMessage = openMessage;
        await segmenter.segment(new Float32Array(spec.width * spec.height * 3));
        if (failures.length > 0) new Logger('matting').log(`${spec.name}: ${failures.join('; ')}; using ${provider}`);
        segmenter.executionProvider = provider;
        return segmenter;
      } catch (error) {
        segmenter.openMessage = null;
        failures.push(`${provider} unavailable (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    await segmenter.release();
    throw new Error(`Model ${spec.name} could not be opened: ${failures.join('; ')}`);
  }

  segment(input: Float32Array): Promise<Float32Array> {
    // Copied into a buffer of our own before anything is awaited: the caller may refill `input` as
    // soon as this returns.
    const own = this.freeInputs.pop() ?? new Float32Array(input.length);
    const buffer = own.length === input.length ? own : new Float32Array(input.length);
    buffer.set(input);
    return this.run(buffer);
  }

  async release(): Promise<void> {
    this.openMessage = null; // an exit from here on is wanted
    await this.worker.terminate();
  }

  private async run(input: Float32Array<ArrayBuffer>): Promise<Float32Array> {
    const { spec } = this;
    await this.alive();
    const dims = spec.layout === 'nhwc' ? [1, spec.height, spec.width, 3] : [1, 3, spec.height, spec.width];
    const mask = await this.ask({ kind: 'run', input, dims }, RUN_TIMEOUT_MS, [input.buffer]);
    if (mask.length !== spec.width * spec.height) {
      throw new Error(`Model ${spec.name} returned ${mask.length} values for a ${spec.width}x${spec.height} input`);
    }
    if (spec.output === 'logit') for (let i = 0; i < mask.length; i++) mask[i] = 1 / (1 + Math.exp(-mask[i]));
    return mask;
  }

  // A thread that died (a crash, or a run that hung) is replaced before the next frame, so one
  // failure never takes the model away from the jobs after it; a replacement that cannot open the
  // model fails that frame, and the next frame tries again.
  private async alive(): Promise<void> {
    if (!this.exited) return;
    const openMessage = this.openMessage;
    if (!openMessage) throw new Error(`Model ${this.spec.name} was released`);
    this.reviving ??= (async () => {
      this.spawn();
      await this.ask(openMessage);
    })().finally(() => (this.reviving = null));
    await this.reviving;
  }

  private spawn(): void {
    keepTelemetryOff();
    const worker = new Worker(join(__dirname, 'onnx-worker.cjs'));
    // Read now: a worker that has stopped answers -1.
    const { threadId } = worker;
    this.worker = worker;
    this.exited = false;
    worker.on('message', (answer: WorkerAnswer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) worker.unref();
      clearTimeout(waiter?.timer);
      if (answer.input) this.freeInputs.push(answer.input);
      if (answer.ok) waiter?.resolve(answer.mask ?? new Float32Array(0));
      else waiter?.reject(new Error(`Model ${this.spec.name}: ${answer.error}`));
    });
    worker.on('error', (error) => new Logger('matting').error(`${this.spec.name}: worker thread failed: ${error.message}`));
    // The frames it had fail (their jobs are retried).
    worker.on('exit', (code) => {
      // A thread stopped mid-run (a run that hung) hands the device to the next.
      if (Atomics.compareExchange(deviceLock, 0, threadId, 0) === threadId) Atomics.notify(deviceLock, 0);
      if (this.worker !== worker) return;
      this.exited = true;
      this.failAll(new Error(`Model ${this.spec.name}: its worker thread exited (${code})`));
    });
    // An idle model must not keep the process alive; one at work must (see ask()).
    worker.unref();
  }

  private failAll(error: Error): void {
    for (const waiter of this.waiting.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(error);
    }
    this.waiting.clear();
  }

  private ask(message: object, timeoutMs?: number, transfer: ArrayBuffer[] = []): Promise<Float32Array> {
    if (this.exited) return Promise.reject(new Error(`Model ${this.spec.name}: its worker thread is gone`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = timeoutMs
        ? setTimeout(() => {
            this.failAll(new Error(`Model ${this.spec.name}: a run took longer than ${timeoutMs} ms; restarting its thread`));
            void this.worker.terminate();
          }, timeoutMs)
        : undefined;
      this.waiting.set(id, { resolve, reject, timer });
      this.worker.ref();
      this.worker.postMessage({ id, ...message }, transfer);
    });
  }
}
