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
}

// A frame whose model run is under way.
export interface PendingMatte {
  frame: Buffer;
  luma: Float32Array;
  mask: Promise<Float32Array>;
}

// One video's frames, in order: each yuv420p frame gets its alpha plane written after it, making
// the buffer a yuva420p frame. Work is split so the model runs on frame n+1 (on ONNX Runtime's
// threads) while this thread finishes frame n: start(n+1), then finish(n). Holds the state that
// ties frames together (the smoother's), so frames must be finished in order.
export class FrameMatter {
  private readonly input: ModelInput;
  private readonly smoother: TemporalSmoother;
  private readonly builder: MatteBuilder;
  // Two sets of model inputs: one being read by a model run, one being filled.
  private readonly slots: { tensor: Float32Array; luma: Float32Array }[];
  private nextSlot = 0;
  readonly yuvBytes: number;
  readonly yuvaBytes: number;
  readonly smallBytes: number;

  constructor(
    private readonly segmenter: Segmenter,
    settings: FrameMatterSettings,
  ) {
    const { spec } = segmenter;
    const { width, height } = settings;
    this.input = new ModelInput(spec.width, spec.height, settings.matrix);
    this.smoother = new TemporalSmoother(spec.width, spec.height, settings.smoothing);
    this.builder = new MatteBuilder(spec.width, spec.height, width, height, settings.matte);
    this.slots = [0, 1].map(() => ({ tensor: new Float32Array(spec.width * spec.height * 3), luma: new Float32Array(spec.width * spec.height) }));
    this.yuvBytes = (width * height * 3) / 2;
    this.yuvaBytes = this.yuvBytes + width * height;
    this.smallBytes = this.input.frameBytes;
  }

  // `small` is the same frame at the model's size, as yuv444p (see decodeFramesArgs).
  start(frame: Buffer, small: Uint8Array): PendingMatte {
    const slot = this.slots[this.nextSlot];
    this.nextSlot = 1 - this.nextSlot;
    this.input.write(small, this.segmenter.spec, slot.tensor, slot.luma);
    const mask = this.segmenter.segment(slot.tensor);
    // Awaited by finish(); until then a failure must not count as unhandled.
    mask.catch(() => undefined);
    return { frame, luma: slot.luma, mask };
  }

  // Writes the alpha plane and returns it (a view into the frame's buffer).
  async finish(pending: PendingMatte): Promise<Uint8ClampedArray> {
    const { frame, luma } = pending;
    const mask = await pending.mask;
    this.smoother.smooth(mask, luma);
    const alpha = new Uint8ClampedArray(frame.buffer, frame.byteOffset + this.yuvBytes, this.yuvaBytes - this.yuvBytes);
    this.builder.build(mask, luma, frame, alpha);
    return alpha;
  }
}
