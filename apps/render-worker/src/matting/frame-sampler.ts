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
  private readonly columns;
  private readonly rows;
  private readonly chromaColumns;
  private readonly chromaRows;
  private readonly sumY: Float64Array;
  private readonly sumU: Float64Array;
  private readonly sumV: Float64Array;
  private readonly matrix;

  constructor(
    readonly frameWidth: number,
    readonly frameHeight: number,
    readonly width: number,
    readonly height: number,
    matrix: YuvMatrix,
  ) {
    this.columns = spans(frameWidth, width);
    this.rows = spans(frameHeight, height);
    this.chromaColumns = spans(frameWidth / 2, width);
    this.chromaRows = spans(frameHeight / 2, height);
    this.sumY = new Float64Array(frameWidth);
    this.sumU = new Float64Array(frameWidth / 2);
    this.sumV = new Float64Array(frameWidth / 2);
    this.matrix = MATRICES[matrix];
  }

  // Writes the model input into `tensor` (width*height*3) and the luma into `luma` (width*height).
  sample(frame: Uint8Array, format: TensorFormat, tensor: Float32Array, luma: Float32Array): void {
    const { frameWidth: fw, frameHeight: fh, width, height, sumY, sumU, sumV } = this;
    const chromaWidth = fw / 2;
    const uPlane = fw * fh;
    const vPlane = uPlane + (fw * fh) / 4;
    const { rv, gu, gv, bu } = this.matrix;
    const pixels = width * height;
    const [mr, mg, mb] = format.mean;
    const [sr, sg, sb] = format.std;
    for (let oy = 0; oy < height; oy++) {
      columnSums(frame, 0, fw, this.rows.start[oy], this.rows.end[oy], sumY);
      columnSums(frame, uPlane, chromaWidth, this.chromaRows.start[oy], this.chromaRows.end[oy], sumU);
      columnSums(frame, vPlane, chromaWidth, this.chromaRows.start[oy], this.chromaRows.end[oy], sumV);
      const lumaRows = this.rows.end[oy] - this.rows.start[oy];
      const chromaRowCount = this.chromaRows.end[oy] - this.chromaRows.start[oy];
      for (let ox = 0; ox < width; ox++) {
        const y = spanMean(sumY, this.columns.start[ox], this.columns.end[ox]) / lumaRows;
        const u = spanMean(sumU, this.chromaColumns.start[ox], this.chromaColumns.end[ox]) / chromaRowCount - 128;
        const v = spanMean(sumV, this.chromaColumns.start[ox], this.chromaColumns.end[ox]) / chromaRowCount - 128;
        const l = lumaOf(y);
        const r = clamp01(l + (rv * v) / 255);
        const g = clamp01(l - (gu * u + gv * v) / 255);
        const b = clamp01(l + (bu * u) / 255);
        const i = oy * width + ox;
        luma[i] = l;
        if (format.layout === 'nhwc') {
          tensor[i * 3] = (r - mr) / sr;
          tensor[i * 3 + 1] = (g - mg) / sg;
          tensor[i * 3 + 2] = (b - mb) / sb;
        } else {
          tensor[i] = (r - mr) / sr;
          tensor[pixels + i] = (g - mg) / sg;
          tensor[2 * pixels + i] = (b - mb) / sb;
        }
      }
    }
  }
}

function columnSums(frame: Uint8Array, plane: number, stride: number, rowStart: number, rowEnd: number, sums: Float64Array): void {
  sums.fill(0);
  for (let row = rowStart; row < rowEnd; row++) {
    const offset = plane + row * stride;
    for (let x = 0; x < stride; x++) sums[x] += frame[offset + x];
  }
}

function spanMean(sums: Float64Array, start: number, end: number): number {
  let total = 0;
  for (let x = start; x < end; x++) total += sums[x];
  return total / (end - start);
}

function clamp01(value: number): number {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}
