// Turns a decoded yuv420p frame into what the model and the smoother read: a box-averaged RGB
// tensor at the model's size, and the luma at that size. Done here rather than by a second ffmpeg
// output so the picture is decoded once and read through one pipe.

export type YuvMatrix = 'bt601' | 'bt709';
export type TensorLayout = 'nhwc' | 'nchw';

export interface TensorFormat {
  layout: TensorLayout;
  // Each channel, after scaling to 0..1, becomes (value - mean) / std.
  mean: readonly [number, number, number];
  std: readonly [number, number, number];
}

// Limited-range luma as 0..1, the scale both the sampled and the full-size guide use.
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

// Each destination cell reads a box of `size` samples along one axis, centred on where the cell
// falls in the source: an area average for the usual 2-5x reductions, with a bounded cost per cell
// however large the frame (a 4K frame is read sparsely rather than whole).
function taps(source: number, destination: number, size: number, stride: number): Int32Array {
  const offsets = new Int32Array(destination * size);
  const scale = source / destination;
  for (let i = 0; i < destination; i++) {
    const first = Math.round((i + 0.5) * scale - size / 2);
    for (let k = 0; k < size; k++) offsets[i * size + k] = Math.min(source - 1, Math.max(0, first + k)) * stride;
  }
  return offsets;
}

// Samples per axis: the reduction factor, rounded, from 1 to 4.
function boxSize(source: number, destination: number): number {
  return Math.min(4, Math.max(1, Math.round(source / destination)));
}

export class FrameSampler {
  private readonly lumaColumns: Int32Array;
  private readonly lumaRows: Int32Array;
  private readonly chromaColumns: Int32Array;
  private readonly chromaRows: Int32Array;
  private readonly lumaBox: [number, number];
  private readonly chromaBox: [number, number];
  private readonly matrix;

  constructor(
    readonly frameWidth: number,
    readonly frameHeight: number,
    readonly width: number,
    readonly height: number,
    matrix: YuvMatrix,
  ) {
    const boxX = boxSize(frameWidth, width);
    const boxY = boxSize(frameHeight, height);
    const chromaBoxX = boxSize(frameWidth / 2, width);
    const chromaBoxY = boxSize(frameHeight / 2, height);
    this.lumaBox = [boxX, boxY];
    this.chromaBox = [chromaBoxX, chromaBoxY];
    this.lumaColumns = taps(frameWidth, width, boxX, 1);
    this.lumaRows = taps(frameHeight, height, boxY, frameWidth);
    this.chromaColumns = taps(frameWidth / 2, width, chromaBoxX, 1);
    this.chromaRows = taps(frameHeight / 2, height, chromaBoxY, frameWidth / 2);
    this.matrix = MATRICES[matrix];
  }

  // Writes the model input into `tensor` (width*height*3) and the luma into `luma` (width*height).
  sample(frame: Uint8Array, format: TensorFormat, tensor: Float32Array, luma: Float32Array): void {
    const { width, height, lumaColumns, lumaRows, chromaColumns, chromaRows } = this;
    const [boxX, boxY] = this.lumaBox;
    const [chromaBoxX, chromaBoxY] = this.chromaBox;
    const uPlane = this.frameWidth * this.frameHeight;
    const vPlane = uPlane + uPlane / 4;
    const lumaScale = 1 / (boxX * boxY * 219);
    const chromaScale = 1 / (chromaBoxX * chromaBoxY * 255);
    const { rv, gu, gv, bu } = this.matrix;
    // Channel c of pixel i goes to tensor[i * pixelStride + c * channelStride].
    const pixelStride = format.layout === 'nhwc' ? 3 : 1;
    const channelStride = format.layout === 'nhwc' ? 1 : width * height;
    const [mr, mg, mb] = format.mean;
    const [ir, ig, ib] = format.std.map((std) => 1 / std);
    for (let oy = 0; oy < height; oy++) {
      for (let ox = 0; ox < width; ox++) {
        let y = 0;
        for (let ky = 0; ky < boxY; ky++) {
          const row = lumaRows[oy * boxY + ky];
          for (let kx = 0; kx < boxX; kx++) y += frame[row + lumaColumns[ox * boxX + kx]];
        }
        let u = 0;
        let v = 0;
        for (let ky = 0; ky < chromaBoxY; ky++) {
          const row = chromaRows[oy * chromaBoxY + ky];
          for (let kx = 0; kx < chromaBoxX; kx++) {
            const at = row + chromaColumns[ox * chromaBoxX + kx];
            u += frame[uPlane + at];
            v += frame[vPlane + at];
          }
        }
        const l = y * lumaScale - 16 / 219; // lumaOf, inlined
        const cu = u * chromaScale - 128 / 255;
        const cv = v * chromaScale - 128 / 255;
        const i = oy * width + ox;
        const t = i * pixelStride;
        luma[i] = l;
        tensor[t] = (clamp01(l + rv * cv) - mr) * ir;
        tensor[t + channelStride] = (clamp01(l - gu * cu - gv * cv) - mg) * ig;
        tensor[t + 2 * channelStride] = (clamp01(l + bu * cu) - mb) * ib;
      }
    }
  }
}

function clamp01(value: number): number {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}
