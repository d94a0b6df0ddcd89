import { BilinearMap } from './bilinear';
import { GuidedFilter, type GuidedFilterSettings } from './guided-filter';
import { RefinedAlpha } from './refined-alpha';

// Turns the model-size mask into the 8-bit alpha the encoder reads. Plain, it stays at the mask's
// size and the encoder scales it up (bilinear, so edges are smooth, never stair-stepped). With
// refine_foreground_edges it is made at the frame's size through the fast guided filter, so edges
// follow the picture's own (hair, fingers).

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

export class MatteBuilder {
  private readonly refined: { filter: GuidedFilter; alpha: RefinedAlpha } | null;
  // The size of the alpha frames it makes.
  readonly width: number;
  readonly height: number;

  constructor(
    maskWidth: number,
    maskHeight: number,
    frameWidth: number,
    frameHeight: number,
    private readonly settings: MatteSettings,
  ) {
    this.refined = settings.refine
      ? {
          filter: new GuidedFilter(maskWidth, maskHeight, settings.guided),
          alpha: new RefinedAlpha(new BilinearMap(maskWidth, maskHeight, frameWidth, frameHeight), settings),
        }
      : null;
    this.width = settings.refine ? frameWidth : maskWidth;
    this.height = settings.refine ? frameHeight : maskHeight;
  }

  // `luma` is the picture at the mask's size; `fullLuma` its full-size Y plane (refinement only).
  // Returns a fresh alpha frame: it is handed to a writer that may still hold the previous one.
  build(mask: Float32Array, luma: Float32Array, fullLuma: Uint8Array | undefined): Uint8Array {
    const alpha = new Uint8ClampedArray(this.width * this.height); // stores clamp and round: the ramp's ends
    const low = this.settings.transparentBelow;
    const gain = 255 / (this.settings.opaqueFrom - low);
    if (!this.refined) {
      for (let i = 0; i < mask.length; i++) alpha[i] = (mask[i] - low) * gain;
    } else {
      if (!fullLuma) throw new Error('Edge refinement needs the full-size luma');
      const { filter, alpha: refinedAlpha } = this.refined;
      filter.solve(luma, mask);
      refinedAlpha.write(filter.a, filter.b, fullLuma, alpha);
    }
    return new Uint8Array(alpha.buffer);
  }
}
