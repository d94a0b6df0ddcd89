import { BilinearMap, BilinearResampler } from './bilinear';
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
  private readonly plain: BilinearResampler;
  private readonly refined: BilinearResampler | null;
  private readonly filter: GuidedFilter | null;

  constructor(
    maskWidth: number,
    maskHeight: number,
    readonly width: number,
    readonly height: number,
    private readonly settings: MatteSettings,
  ) {
    const map = new BilinearMap(maskWidth, maskHeight, width, height);
    this.plain = new BilinearResampler(map, 1);
    this.refined = settings.refine ? new BilinearResampler(map, 2) : null;
    this.filter = settings.refine ? new GuidedFilter(maskWidth, maskHeight, settings.guided) : null;
  }

  // `luma` is the picture at the mask's size; `frame` starts with the full-size Y plane. `alpha`
  // clamps and rounds what is stored in it, which is the ramp's two ends.
  build(mask: Float32Array, luma: Float32Array, frame: Uint8Array, alpha: Uint8ClampedArray): void {
    const { width } = this;
    const low = this.settings.transparentBelow;
    const gain = 255 / (this.settings.opaqueFrom - low);
    if (!this.filter || !this.refined) {
      this.plain.run([mask], (y, [row]) => {
        const offset = y * width;
        for (let x = 0; x < width; x++) alpha[offset + x] = (row[x] - low) * gain;
      });
      return;
    }
    this.filter.solve(luma, mask);
    this.refined.run([this.filter.a, this.filter.b], (y, [a, b]) => {
      const offset = y * width;
      for (let x = 0; x < width; x++) alpha[offset + x] = (a[x] * LUMA[frame[offset + x]] + b[x] - low) * gain;
    });
  }
}
