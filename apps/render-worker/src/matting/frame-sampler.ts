// Turns a decoded yuv420p frame into what the model and the smoother read: an area-averaged RGB
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

// Source span [start, end) of each destination cell along one axis, at least one sample wide.
function spans(source: number, destination: number): { start: Int32Array; end: Int32Array } {
  const start = new Int32Array(destination);
  const end = new Int32Array(destination);
  for (let i = 0; i < destination; i++) {
    start[i] = Math.min(source - 1, Math.floor((i * source) / destination));
    end[i] = Math.max(start[i] + 1, Math.floor(((i + 1) * source) / destination));
  }
  return { start, end };
}

export class FrameSampler {
  private readonly columnStart: Int32Array;
  private readonly columnEnd: Int32Array;
  private readonly rowStart: Int32Array;
  private readonly rowEnd: Int32Array;
  private readonly chromaColumnStart: Int32Array;
  private readonly chromaColumnEnd: Int32Array;
  private readonly chromaRowStart: Int32Array;
  private readonly chromaRowEnd: Int32Array;
  private readonly sumY: Int32Array;
  private readonly sumU: Int32Array;
  private readonly sumV: Int32Array;
  private readonly matrix;

  constructor(
    readonly frameWidth: number,
    readonly frameHeight: number,
    readonly width: number,
    readonly height: number,
    matrix: YuvMatrix,
  ) {
    ({ start: this.columnStart, end: this.columnEnd } = spans(frameWidth, width));
    ({ start: this.rowStart, end: this.rowEnd } = spans(frameHeight, height));
    ({ start: this.chromaColumnStart, end: this.chromaColumnEnd } = spans(frameWidth / 2, width));
    ({ start: this.chromaRowStart, end: this.chromaRowEnd } = spans(frameHeight / 2, height));
    this.sumY = new Int32Array(frameWidth);
    this.sumU = new Int32Array(frameWidth / 2);
    this.sumV = new Int32Array(frameWidth / 2);
    this.matrix = MATRICES[matrix];
  }

  // Writes the model input into `tensor` (width*height*3) and the luma into `luma` (width*height).
  sample(frame: Uint8Array, format: TensorFormat, tensor: Float32Array, luma: Float32Array): void {
    const { frameWidth: fw, frameHeight: fh, width, height, sumY, sumU, sumV } = this;
    const { columnStart, columnEnd, chromaColumnStart, chromaColumnEnd } = this;
    const chromaWidth = fw / 2;
    const uPlane = fw * fh;
    const vPlane = uPlane + (fw * fh) / 4;
    const { rv, gu, gv, bu } = this.matrix;
    // Channel c of pixel i goes to tensor[i * pixelStride + c * channelStride].
    const pixelStride = format.layout === 'nhwc' ? 3 : 1;
    const channelStride = format.layout === 'nhwc' ? 1 : width * height;
    const [mr, mg, mb] = format.mean;
    const [ir, ig, ib] = format.std.map((std) => 1 / std);
    for (let oy = 0; oy < height; oy++) {
      const lumaRows = columnSums(frame, 0, fw, this.rowStart[oy], this.rowEnd[oy], sumY);
      const chromaRows = columnSums(frame, uPlane, chromaWidth, this.chromaRowStart[oy], this.chromaRowEnd[oy], sumU);
      columnSums(frame, vPlane, chromaWidth, this.chromaRowStart[oy], this.chromaRowEnd[oy], sumV);
      for (let ox = 0; ox < width; ox++) {
        let y = 0;
        for (let x = columnStart[ox]; x < columnEnd[ox]; x++) y += sumY[x];
        let u = 0;
        let v = 0;
        for (let x = chromaColumnStart[ox]; x < chromaColumnEnd[ox]; x++) {
          u += sumU[x];
          v += sumV[x];
        }
        const chromaCount = chromaRows * (chromaColumnEnd[ox] - chromaColumnStart[ox]) * 255;
        const l = (y / (lumaRows * (columnEnd[ox] - columnStart[ox])) - 16) / 219; // lumaOf, inlined
        const cu = u / chromaCount - 128 / 255;
        const cv = v / chromaCount - 128 / 255;
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

// Sums rows [rowStart, rowEnd) of a plane column by column into `sums`; returns the row count.
function columnSums(frame: Uint8Array, plane: number, stride: number, rowStart: number, rowEnd: number, sums: Int32Array): number {
  let offset = plane + rowStart * stride;
  for (let x = 0; x < stride; x++) sums[x] = frame[offset + x];
  for (let row = rowStart + 1; row < rowEnd; row++) {
    offset += stride;
    for (let x = 0; x < stride; x++) sums[x] += frame[offset + x];
  }
  return rowEnd - rowStart;
}

function clamp01(value: number): number {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}
