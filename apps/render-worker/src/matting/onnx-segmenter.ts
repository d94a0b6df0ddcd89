import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Logger } from '@nestjs/common';
import { InferenceSession, Tensor } from 'onnxruntime-node';
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

export class OnnxSegmenter implements Segmenter {
  private constructor(
    readonly spec: MattingModelSpec,
    readonly executionProvider: string,
    private readonly session: InferenceSession,
  ) {}

  static async open(spec: MattingModelSpec, settings: OnnxSettings): Promise<OnnxSegmenter> {
    const failures: string[] = [];
    for (const provider of providerChain(settings.executionProviders)) {
      if (!providerInstalled(provider)) {
        failures.push(`${provider} not installed`);
        continue;
      }
      try {
        const session = await InferenceSession.create(spec.path, {
          executionProviders: [provider],
          intraOpNumThreads: settings.intraOpThreads,
          // One frame at a time: spinning threads between runs only takes CPU from ffmpeg.
          extra: { session: { intra_op: { allow_spinning: '0' } } },
          graphOptimizationLevel: 'all',
        });
        if (failures.length > 0) new Logger('matting').log(`${spec.name}: ${failures.join('; ')}; using ${provider}`);
        return new OnnxSegmenter(spec, provider, session);
      } catch (error) {
        failures.push(`${provider} unavailable (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    throw new Error(`Model ${spec.name} could not be opened: ${failures.join('; ')}`);
  }

  async segment(input: Float32Array): Promise<Float32Array> {
    const { spec, session } = this;
    const dims = spec.layout === 'nhwc' ? [1, spec.height, spec.width, 3] : [1, 3, spec.height, spec.width];
    const outputs = await session.run({ [session.inputNames[0]]: new Tensor('float32', input, dims) });
    const mask = outputs[session.outputNames[0]].data as Float32Array;
    if (mask.length !== spec.width * spec.height) {
      throw new Error(`Model ${spec.name} returned ${mask.length} values for a ${spec.width}x${spec.height} input`);
    }
    if (spec.output === 'logit') for (let i = 0; i < mask.length; i++) mask[i] = 1 / (1 + Math.exp(-mask[i]));
    return mask;
  }

  release(): Promise<void> {
    return this.session.release();
  }
}
