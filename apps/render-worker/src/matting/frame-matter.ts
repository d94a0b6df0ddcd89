import { FrameSampler, type YuvMatrix } from './frame-sampler';
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

// One video's frames, in order: each yuv420p frame gets its alpha plane written after it, making
// the buffer a yuva420p frame. Holds the state that ties frames together (the smoother's).
export class FrameMatter {
  private readonly sampler: FrameSampler;
  private readonly smoother: TemporalSmoother;
  private readonly builder: MatteBuilder;
  private readonly tensor: Float32Array;
  private readonly luma: Float32Array;
  readonly yuvBytes: number;
  readonly yuvaBytes: number;

  constructor(
    private readonly segmenter: Segmenter,
    settings: FrameMatterSettings,
  ) {
    const { spec } = segmenter;
    const { width, height } = settings;
    this.sampler = new FrameSampler(width, height, spec.width, spec.height, settings.matrix);
    this.smoother = new TemporalSmoother(spec.width, spec.height, settings.smoothing);
    this.builder = new MatteBuilder(spec.width, spec.height, width, height, settings.matte);
    this.tensor = new Float32Array(spec.width * spec.height * 3);
    this.luma = new Float32Array(spec.width * spec.height);
    this.yuvBytes = (width * height * 3) / 2;
    this.yuvaBytes = this.yuvBytes + width * height;
  }

  // Returns the alpha plane it wrote (a view into `frame`).
  async matte(frame: Buffer): Promise<Uint8Array> {
    this.sampler.sample(frame, this.segmenter.spec, this.tensor, this.luma);
    const mask = await this.segmenter.segment(this.tensor);
    this.smoother.smooth(mask, this.luma);
    const alpha = frame.subarray(this.yuvBytes, this.yuvaBytes);
    this.builder.build(mask, this.luma, frame, alpha);
    return alpha;
  }
}
