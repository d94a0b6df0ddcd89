import { ModelInput, type YuvMatrix } from './model-input';
import { MatteBuilder, type MatteSettings } from './matte-builder';
import type { Segmenter } from './matting-model';
import { TemporalSmoother, type SmoothingSettings } from './temporal-smoother';

export interface FrameMatterSettings {
  width: number;
  height: number;
  matrix: YuvMatrix;
  matte: MatteSettings;
  smoothing: SmoothingSettings;
  // Frames started and not yet finished, at most (see runFramePipeline).
  depth: number;
}

// A frame whose model run is under way.
export interface PendingMatte {
  luma: Float32Array;
  fullLuma: Uint8Array | undefined;
  mask: Promise<Float32Array>;
}

// One video's frames, in order: each frame, as the decoder gives it at the model's size (and its
// full-size luma when refining), becomes its 8-bit alpha frame. Work is split so the model runs on
// frame n+1 (on its own thread) while this thread finishes frame n: start(n+1), then finish(n).
// Holds the state that ties frames together (the smoother's), so frames must be finished in order.
export class FrameMatter {
  private readonly input: ModelInput;
  private readonly smoother: TemporalSmoother;
  private readonly builder: MatteBuilder;
  // One set of model inputs per frame in flight: they are read by model runs while others are filled.
  private readonly slots: { tensor: Float32Array; luma: Float32Array }[];
  private nextSlot = 0;

  constructor(
    private readonly segmenter: Segmenter,
    settings: FrameMatterSettings,
  ) {
    const { spec } = segmenter;
    this.input = new ModelInput(spec.width, spec.height, settings.matrix);
    this.smoother = new TemporalSmoother(spec.width, spec.height, settings.smoothing);
    this.builder = new MatteBuilder(spec.width, spec.height, settings.width, settings.height, settings.matte);
    this.slots = Array.from({ length: settings.depth }, () => ({ tensor: new Float32Array(spec.width * spec.height * 3), luma: new Float32Array(spec.width * spec.height) }));
  }

  start(small: Uint8Array, fullLuma: Uint8Array | undefined): PendingMatte {
    const slot = this.slots[this.nextSlot];
    this.nextSlot = (this.nextSlot + 1) % this.slots.length;
    this.input.write(small, this.segmenter.spec, slot.tensor, slot.luma);
    const mask = this.segmenter.segment(slot.tensor);
    // Awaited by finish(); until then a failure must not count as unhandled.
    mask.catch(() => undefined);
    return { luma: slot.luma, fullLuma, mask };
  }

  async finish(pending: PendingMatte): Promise<Uint8Array> {
    const mask = flushTiny(await pending.mask);
    this.smoother.smooth(mask, pending.luma);
    return this.builder.build(mask, pending.luma, pending.fullLuma);
  }
}

// A sigmoid's background answers are as small as 1e-30, and smoothing shrinks them further into
// subnormal floats, which the CPU handles tens of times slower. They are all 0 at 8 bits anyway.
function flushTiny(mask: Float32Array): Float32Array {
  for (let i = 0; i < mask.length; i++) if (mask[i] < 1e-4) mask[i] = 0;
  return mask;
}
