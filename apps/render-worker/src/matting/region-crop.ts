import type { Region } from './region-tracker';

// The two ends of a cropped model run (decision 0041): the region cut from the decoder's crop source and
// resampled to the model's size, and the model's mask of it put back in place on the whole frame's
// grid, where the temporal smoother and the matte builder read it as if the model had seen the
// whole frame.

export interface PictureSize {
  width: number;
  height: number;
}

// Bytes of a crop of `crop`'s size: its luma, then each chroma plane at half its resolution.
export function cropBytes(crop: PictureSize): number {
  return crop.width * crop.height + 2 * Math.ceil(crop.width / 2) * Math.ceil(crop.height / 2);
}

// Cuts regions of the grid out of the decoder's crop source, one frame after another: writes into
// `out` (a yuv420p picture of `crop`'s size, the crop model's, by default the grid's: see
// cropBytes) the `region` of the grid, read from `source` (planar yuv420p of `sourceSize`, the whole
// frame at any size). Each output pixel averages up to 3x3 bilinear taps over its footprint
// (fillTaps), so a source much larger than the crop is not aliased. Chroma stays at half the crop's
// resolution, as in the 4:2:0 source: it halves the work on every cropped
// frame, the model reads colour at no finer grain than that, and ModelInput reads it as it is. Its
// scratch buffers are made once: this runs on every cropped frame.
export class RegionSampler {
  private readonly half: PictureSize;
  private readonly chroma: PictureSize;
  private readonly axes: { lumaX: AxisTaps; lumaY: AxisTaps; chromaX: AxisTaps; chromaY: AxisTaps };
  private readonly rowValues: Float64Array;

  constructor(
    private readonly sourceSize: PictureSize,
    private readonly grid: PictureSize,
    private readonly crop: PictureSize = grid,
  ) {
    this.half = { width: Math.ceil(crop.width / 2), height: Math.ceil(crop.height / 2) };
    this.chroma = { width: sourceSize.width >> 1, height: sourceSize.height >> 1 };
    this.axes = { lumaX: axisTaps(crop.width), lumaY: axisTaps(crop.height), chromaX: axisTaps(this.half.width), chromaY: axisTaps(this.half.height) };
    this.rowValues = new Float64Array(sourceSize.width);
  }

  sample(source: Uint8Array, region: Region, out: Uint8Array): void {
    const { sourceSize, grid, crop, half, chroma, axes } = this;
    const scaleX = sourceSize.width / grid.width;
    const scaleY = sourceSize.height / grid.height;
    const stepX = (region.width * scaleX) / crop.width;
    const stepY = (region.height * scaleY) / crop.height;
    const lumaPixels = sourceSize.width * sourceSize.height;
    const cropPixels = crop.width * crop.height;
    fillTaps(axes.lumaX, region.x * scaleX, stepX, sourceSize.width);
    fillTaps(axes.lumaY, region.y * scaleY, stepY, sourceSize.height);
    this.resample(source, 0, sourceSize.width, axes.lumaX, axes.lumaY, out, 0, crop.width);
    // A half-grid pixel covers two grid pixels, which cover scale/2 chroma pixels each.
    fillTaps(axes.chromaX, (region.x * scaleX) / 2, stepX, chroma.width);
    fillTaps(axes.chromaY, (region.y * scaleY) / 2, stepY, chroma.height);
    const halfPixels = half.width * half.height;
    for (const plane of [0, 1]) {
      this.resample(source, lumaPixels + plane * chroma.width * chroma.height, chroma.width, axes.chromaX, axes.chromaY, out, cropPixels + plane * halfPixels, half.width);
    }
  }

  // Each output row's vertical taps are summed first (into `rowValues`, one per source column), then
  // the columns' taps read that sum once: two passes instead of four reads per tap, and one
  // horizontal pass per row whatever the vertical taps. Plain locals throughout: this runs on every
  // pixel of every cropped frame.
  private resample(source: Uint8Array, offset: number, stride: number, xs: AxisTaps, ys: AxisTaps, out: Uint8Array, outOffset: number, outWidth: number): void {
    if (xs.taps === 1 && ys.taps === 1) return bilinear(source, offset, stride, xs, ys, out, outOffset, outWidth, this.rowValues);
    const { rowValues } = this;
    const { count: columns, taps: xTaps, index: xIndex, next: xNext, weight: xWeight } = xs;
    const { count: rows, taps: yTaps, index: yIndex, next: yNext, weight: yWeight } = ys;
    const scale = 1 / (xTaps * yTaps);
    // Only the source columns the taps read.
    const first = xIndex[0];
    const last = xNext[columns * xTaps - 1];
    for (let j = 0; j < rows; j++) {
      for (let k = j * yTaps; k < (j + 1) * yTaps; k++) {
        const top = offset + yIndex[k] * stride;
        const bottom = offset + yNext[k] * stride;
        const weight = yWeight[k];
        if (k === j * yTaps) {
          for (let x = first; x <= last; x++) rowValues[x] = source[top + x] + weight * (source[bottom + x] - source[top + x]);
        } else {
          for (let x = first; x <= last; x++) rowValues[x] += source[top + x] + weight * (source[bottom + x] - source[top + x]);
        }
      }
      const row = outOffset + j * outWidth;
      let t = 0;
      for (let i = 0; i < columns; i++) {
        let total = 0;
        for (let c = 0; c < xTaps; c++, t++) {
          const left = rowValues[xIndex[t]];
          total += left + xWeight[t] * (rowValues[xNext[t]] - left);
        }
        out[row + i] = total * scale + 0.5;
      }
    }
  }
}

// Puts `cropMask` (the model's mask of `region`, of the crop model's size) back in place: grid pixels whose
// centre lies in the region take the crop's bilinear value, the rest keep what `into` holds (the
// whole frame's own mask on a check frame, else 0). Where the region overlaps `pasted` (regions
// pasted before it: people close together), the larger of the two crops' values is kept, as each
// crop may cut the other's person at its edge.
export function pasteRegion(cropMask: Float32Array, crop: PictureSize, region: Region, grid: PictureSize, into: Float32Array, pasted: readonly Region[] = []): Float32Array {
  const { width, height } = grid;
  const toCropX = crop.width / region.width;
  const toCropY = crop.height / region.height;
  const x0 = Math.max(0, Math.ceil(region.x - 0.5));
  const x1 = Math.min(width, Math.ceil(region.x + region.width - 0.5));
  const y0 = Math.max(0, Math.ceil(region.y - 0.5));
  const y1 = Math.min(height, Math.ceil(region.y + region.height - 0.5));
  // Each column's bilinear tap in the crop, flat: this runs on every cropped frame.
  const columns = x1 - x0;
  const index = new Int32Array(columns);
  const next = new Int32Array(columns);
  const weight = new Float64Array(columns);
  for (let i = 0; i < columns; i++) ({ index: index[i], next: next[i], weight: weight[i] } = tap((x0 + i + 0.5 - region.x) * toCropX - 0.5, crop.width));
  // The columns (counted from x0) each region pasted before covers, and per row whether it covers
  // that row: where they overlap, the larger value is kept. Flat, as nothing is allocated per row or pixel.
  const spans = new Int32Array(2 * pasted.length);
  const coversRow = new Uint8Array(pasted.length);
  for (let k = 0; k < pasted.length; k++) {
    const other = pasted[k];
    spans[2 * k] = Math.max(0, Math.ceil(other.x - 0.5) - x0);
    spans[2 * k + 1] = Math.min(columns, Math.ceil(other.x + other.width - 0.5) - x0);
  }
  for (let y = y0; y < y1; y++) {
    const row = tap((y + 0.5 - region.y) * toCropY - 0.5, crop.height);
    const top = row.index * crop.width;
    const bottom = row.next * crop.width;
    let shared = 0;
    for (let k = 0; k < pasted.length; k++) {
      const other = pasted[k];
      coversRow[k] = y + 0.5 >= other.y && y + 0.5 < other.y + other.height ? 1 : 0;
      shared += coversRow[k];
    }
    for (let i = 0; i < columns; i++) {
      const left = index[i];
      const right = next[i];
      const upper = cropMask[top + left] + weight[i] * (cropMask[top + right] - cropMask[top + left]);
      const lower = cropMask[bottom + left] + weight[i] * (cropMask[bottom + right] - cropMask[bottom + left]);
      const value = upper + row.weight * (lower - upper);
      const at = y * width + x0 + i;
      if (shared === 0 || value >= into[at] || !withinSpans(spans, coversRow, i)) into[at] = value;
    }
  }
  return into;
}

// Whether column i lies in the span of a region that covers the row.
function withinSpans(spans: Int32Array, coversRow: Uint8Array, i: number): boolean {
  for (let k = 0; k < coversRow.length; k++) if (coversRow[k] === 1 && i >= spans[2 * k] && i < spans[2 * k + 1]) return true;
  return false;
}

interface Tap {
  index: number;
  next: number;
  weight: number;
}

// A bilinear tap at source coordinate `at` (pixel centres at integers), clamped to [0, size).
function tap(at: number, size: number): Tap {
  const clamped = Math.min(Math.max(at, 0), size - 1);
  const index = Math.floor(clamped);
  return { index, next: Math.min(index + 1, size - 1), weight: clamped - index };
}

// One axis of a resampling, flat for the inner loops: output pixel i reads `taps` bilinear taps,
// tap k at index[i * taps + k] and next[...] with weight[...], spread over its footprint. Sized
// for the most taps; fillTaps sets them for one region.
interface AxisTaps {
  count: number;
  taps: number;
  index: Int32Array;
  next: Int32Array;
  weight: Float32Array;
}

const MAX_TAPS = 3;

function axisTaps(count: number): AxisTaps {
  return { count, taps: 1, index: new Int32Array(count * MAX_TAPS), next: new Int32Array(count * MAX_TAPS), weight: new Float32Array(count * MAX_TAPS) };
}

// For the axis's output pixels, starting at source coordinate `start` and `step` source pixels apart:
// as many taps as source pixels a footprint spans, rounded. Under 1.5 one bilinear tap: a medium crop
// (step 1.2) then costs half, and bench:matting-quality's tracked clips score the same on average.
function fillTaps(axis: AxisTaps, start: number, step: number, size: number): void {
  const taps = Math.min(MAX_TAPS, Math.max(1, Math.round(step)));
  axis.taps = taps;
  for (let i = 0; i < axis.count; i++) {
    for (let k = 0; k < taps; k++) {
      const { index, next, weight } = tap(start + (i + (k + 0.5) / taps) * step - 0.5, size);
      axis.index[i * taps + k] = index;
      axis.next[i * taps + k] = next;
      axis.weight[i * taps + k] = weight;
    }
  }
}

// One tap a side (a crop no larger than the source's pixels, the common case): plain bilinear, each
// output pixel from its four source pixels. Each row's vertical interpolation is done once per source
// column it reads (into `rowValues`), not twice per output pixel: a zoomed crop reads fewer columns
// than it writes. The same arithmetic in the same order as interpolating pixel by pixel.
function bilinear(source: Uint8Array, offset: number, stride: number, xs: AxisTaps, ys: AxisTaps, out: Uint8Array, outOffset: number, outWidth: number, rowValues: Float64Array): void {
  const { count: columns, index: xIndex, next: xNext, weight: xWeight } = xs;
  const { count: rows, index: yIndex, next: yNext, weight: yWeight } = ys;
  const first = xIndex[0];
  const last = xNext[columns - 1];
  for (let j = 0; j < rows; j++) {
    const top = offset + yIndex[j] * stride;
    const bottom = offset + yNext[j] * stride;
    const weight = yWeight[j];
    for (let x = first; x <= last; x++) {
      const upper = source[top + x];
      rowValues[x] = upper + weight * (source[bottom + x] - upper);
    }
    const row = outOffset + j * outWidth;
    for (let i = 0; i < columns; i++) {
      const left = rowValues[xIndex[i]];
      out[row + i] = left + xWeight[i] * (rowValues[xNext[i]] - left) + 0.5;
    }
  }
}
