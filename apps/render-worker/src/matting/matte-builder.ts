import { BilinearMap, resample } from './bilinear';
import { lumaOf } from './model-input';
import { GuidedFilter, type GuidedFilterSettings } from './guided-filter';

// Brings the low-resolution mask to the frame's size as its 8-bit alpha: plainly resampled, or,
// with refine_foreground_edges, through the fast guided filter so edges follow the picture.

export interface MatteSettings {
  refine: boolean;
  guided: GuidedFilterSettings;
  // Mask values at or below `transparentBelow` become 0 and at or above `opaqueFrom` 255, with a
  // linear ramp between: the model's soft transition is tightened without a hard cut.
  transparentBelow: number;
  opaqueFrom: number;
}

export const DEFAULT_MATTE: Omit<MatteSettings, 'refine'> = {
  guided: { radius: 2, epsilon: 0.002 },
  transparentBelow: 0.3,
  opaqueFrom: 0.7,
};

const LUMA = Float32Array.from({ length: 256 }, (_, y) => lumaOf(y));

export class MatteBuilder {
  private readonly map: BilinearMap;
  private readonly filter: GuidedFilter | null;
  private readonly first: Float32Array;
  private readonly second: Float32Array;
  private readonly rows: Float32Array;

  constructor(
    maskWidth: number,
    maskHeight: number,
    readonly width: number,
    readonly height: number,
    private readonly settings: MatteSettings,
  ) {
    this.map = new BilinearMap(maskWidth, maskHeight, width, height);
    this.filter = settings.refine ? new GuidedFilter(maskWidth, maskHeight, settings.guided) : null;
    this.first = new Float32Array(width * height);
    this.second = settings.refine ? new Float32Array(width * height) : this.first;
    this.rows = new Float32Array(width * 2);
  }

  // `luma` is the picture at the mask's size; `frame` starts with the full-size Y plane. `alpha`
  // clamps and rounds what is stored in it, which is the ramp's two ends.
  build(mask: Float32Array, luma: Float32Array, frame: Uint8Array, alpha: Uint8ClampedArray): void {
    const { first, second, rows } = this;
    const low = this.settings.transparentBelow;
    const gain = 255 / (this.settings.opaqueFrom - low);
    const pixels = this.width * this.height;
    if (!this.filter) {
      resample(mask, this.map, first, rows);
      for (let i = 0; i < pixels; i++) alpha[i] = (first[i] - low) * gain;
      return;
    }
    this.filter.solve(luma, mask);
    resample(this.filter.a, this.map, first, rows);
    resample(this.filter.b, this.map, second, rows);
    for (let i = 0; i < pixels; i++) alpha[i] = (first[i] * LUMA[frame[i]] + second[i] - low) * gain;
  }
}
