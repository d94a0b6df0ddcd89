export type YuvMatrix = 'bt601' | 'bt709';
export type TensorLayout = 'nhwc' | 'nchw';

export interface TensorFormat {
  layout: TensorLayout;
  // Each channel, after scaling to 0..1, becomes (value - mean) / std.
  mean: readonly [number, number, number];
  std: readonly [number, number, number];
}

// Limited-range luma as 0..1, the scale both the model-size and the full-size guide use.
export const lumaOf = (y: number): number => (y - 16) / 219;

// Coefficients of R = Y' + rv V', G = Y' - gu U' - gv V', B = Y' + bu U' (limited range).
const MATRICES: Record<YuvMatrix, { rv: number; gu: number; gv: number; bu: number }> = {
  bt601: { rv: 1.596, gu: 0.392, gv: 0.813, bu: 2.017 },
  bt709: { rv: 1.793, gu: 0.213, gv: 0.533, bu: 2.112 },
};

// Untagged video is read as players do: BT.709 from 720 lines up, BT.601 below.
export function yuvMatrixFor(colorSpace: string | null, height: number): YuvMatrix {
  if (colorSpace === 'bt709') return 'bt709';
  if (colorSpace === 'smpte170m' || colorSpace === 'bt470bg') return 'bt601';
  return height >= 720 ? 'bt709' : 'bt601';
}

// Chroma of a planar picture at the model's size: at full resolution (yuv444p, the decoder's frame)
// or at half, rounded up (a crop, region-crop.ts).
export type ChromaResolution = 'full' | 'half';

// Writes what the model and the smoother read from a frame already scaled to the model's size (by
// the decoder, or cut by the region sampler): the normalised RGB tensor and the luma.
export class ModelInput {
  private readonly matrix;

  constructor(
    readonly width: number,
    readonly height: number,
    matrix: YuvMatrix,
  ) {
    this.matrix = MATRICES[matrix];
  }

  // Fills `tensor` (width*height*3) and, unless null (a crop, or a luma already written), `luma`
  // (width*height) from `picture`.
  write(picture: Uint8Array, format: TensorFormat, tensor: Float32Array, luma: Float32Array | null, chroma: ChromaResolution): void {
    const { width, height } = this;
    const pixels = width * height;
    const { rv, gu, gv, bu } = this.matrix;
    // Channel c of pixel i goes to tensor[i * pixelStride + c * channelStride].
    const pixelStride = format.layout === 'nhwc' ? 3 : 1;
    const channelStride = format.layout === 'nhwc' ? 1 : pixels;
    const [mr, mg, mb] = format.mean;
    const [ir, ig, ib] = format.std.map((std) => 1 / std);
    const shift = chroma === 'half' ? 1 : 0;
    const chromaWidth = (width + shift) >> shift;
    const uPlane = pixels;
    const vPlane = pixels + chromaWidth * ((height + shift) >> shift);
    for (let y = 0, i = 0; y < height; y++) {
      const chromaRow = (y >> shift) * chromaWidth;
      for (let x = 0; x < width; x++, i++) {
        const c = chromaRow + (x >> shift);
        const l = LUMA[picture[i]];
        const cu = CHROMA[picture[uPlane + c]];
        const cv = CHROMA[picture[vPlane + c]];
        const t = i * pixelStride;
        if (luma) luma[i] = l;
        tensor[t] = (clamp01(l + rv * cv) - mr) * ir;
        tensor[t + channelStride] = (clamp01(l - gu * cu - gv * cv) - mg) * ig;
        tensor[t + 2 * channelStride] = (clamp01(l + bu * cu) - mb) * ib;
      }
    }
  }
}

// Each 8-bit value's luma and chroma as write() reads them: a look-up instead of a division on every
// pixel.
const LUMA = Float64Array.from({ length: 256 }, (_, value) => lumaOf(value));
const CHROMA = Float64Array.from({ length: 256 }, (_, value) => (value - 128) / 255);

// The luma alone, as write() fills it, for a frame whose model run reads another picture (a crop);
// returns its mean absolute difference (0..1) from `previous`, the last frame's, in the same pass.
export function writeLumaChange(small: Uint8Array, luma: Float32Array, previous: Float32Array): number {
  let total = 0;
  for (let i = 0; i < luma.length; i++) {
    luma[i] = LUMA[small[i]];
    // Read back: the difference of the stored (single-precision) values, as the smoother takes it.
    const difference = luma[i] - previous[i];
    total += difference < 0 ? -difference : difference;
  }
  return total / luma.length;
}

function clamp01(value: number): number {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}
