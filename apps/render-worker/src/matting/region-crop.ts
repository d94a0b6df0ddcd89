import type { Region } from './region-tracker';

// The two ends of a cropped model run (issue 14): the region cut from the decoder's crop source and
// resampled to the model's size, and the model's mask of it put back in place on the whole frame's
// grid, where the temporal smoother and the matte builder read it as if the model had seen the
// whole frame.

export interface PictureSize {
  width: number;
  height: number;
}

// Writes into `out` (planar yuv444p, grid width x height) the `region` of the grid, read from
// `source` (planar yuv420p of `sourceSize`, the whole frame at any size). Each output pixel averages
// up to 3x3 bilinear taps over its footprint, so a source larger than the crop is not aliased.
// Chroma is sampled at half the grid's resolution and doubled, as in the 4:2:0 source: it halves
// the work on every cropped frame, and the model reads colour at no finer grain than that.
export function sampleRegion(source: Uint8Array, sourceSize: PictureSize, region: Region, grid: PictureSize, out: Uint8Array): void {
  const { width: sw, height: sh } = sourceSize;
  const scaleX = sw / grid.width;
  const scaleY = sh / grid.height;
  const lumaPixels = sw * sh;
  const chroma = { width: sw >> 1, height: sh >> 1 };
  const half = { width: Math.ceil(grid.width / 2), height: Math.ceil(grid.height / 2) };
  const gridPixels = grid.width * grid.height;
  const lumaX = axisTaps(region.x * scaleX, (region.width * scaleX) / grid.width, grid.width, sw);
  const lumaY = axisTaps(region.y * scaleY, (region.height * scaleY) / grid.height, grid.height, sh);
  resample(source, 0, sw, lumaX, lumaY, out, 0, grid.width);
  // A half-grid pixel covers two grid pixels, which cover scale/2 chroma pixels each.
  const chromaX = axisTaps((region.x * scaleX) / 2, (region.width * scaleX) / grid.width, half.width, chroma.width);
  const chromaY = axisTaps((region.y * scaleY) / 2, (region.height * scaleY) / grid.height, half.height, chroma.height);
  const halfPlane = new Uint8Array(half.width * half.height);
  for (const plane of [1, 2]) {
    resample(source, lumaPixels + (plane - 1) * chroma.width * chroma.height, chroma.width, chromaX, chromaY, halfPlane, 0, half.width);
    const offset = plane * gridPixels;
    for (let y = 0; y < grid.height; y++) {
      const from = (y >> 1) * half.width;
      const to = offset + y * grid.width;
      for (let x = 0; x < grid.width; x++) out[to + x] = halfPlane[from + (x >> 1)];
    }
  }
}

// Puts `cropMask` (the model's mask of `region`, grid-sized) back in place: grid pixels whose
// centre lies in the region take the crop's bilinear value, the rest keep what `into` holds (the
// whole frame's own mask on a check frame, else 0).
export function pasteRegion(cropMask: Float32Array, region: Region, grid: PictureSize, into: Float32Array): Float32Array {
  const { width, height } = grid;
  const toCropX = width / region.width;
  const toCropY = height / region.height;
  const x0 = Math.max(0, Math.ceil(region.x - 0.5));
  const x1 = Math.min(width, Math.ceil(region.x + region.width - 0.5));
  const y0 = Math.max(0, Math.ceil(region.y - 0.5));
  const y1 = Math.min(height, Math.ceil(region.y + region.height - 0.5));
  const columns = Array.from({ length: x1 - x0 }, (_, i) => tap((x0 + i + 0.5 - region.x) * toCropX - 0.5, width));
  for (let y = y0; y < y1; y++) {
    const row = tap((y + 0.5 - region.y) * toCropY - 0.5, height);
    const top = row.index * width;
    const bottom = row.next * width;
    for (let i = 0; i < columns.length; i++) {
      const { index, next, weight } = columns[i];
      const upper = cropMask[top + index] + weight * (cropMask[top + next] - cropMask[top + index]);
      const lower = cropMask[bottom + index] + weight * (cropMask[bottom + next] - cropMask[bottom + index]);
      into[y * width + x0 + i] = upper + row.weight * (lower - upper);
    }
  }
  return into;
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
// tap k at index[i * taps + k] and next[...] with weight[...], spread over its footprint.
interface AxisTaps {
  taps: number;
  index: Int32Array;
  next: Int32Array;
  weight: Float32Array;
}

// For `count` output pixels along one axis, starting at source coordinate `start` and `step` source
// pixels apart.
function axisTaps(start: number, step: number, count: number, size: number): AxisTaps {
  const taps = Math.min(3, Math.max(1, Math.ceil(step - 1e-6)));
  const axis = { taps, index: new Int32Array(count * taps), next: new Int32Array(count * taps), weight: new Float32Array(count * taps) };
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < taps; k++) {
      const { index, next, weight } = tap(start + (i + (k + 0.5) / taps) * step - 0.5, size);
      axis.index[i * taps + k] = index;
      axis.next[i * taps + k] = next;
      axis.weight[i * taps + k] = weight;
    }
  }
  return axis;
}

// Rows are interpolated once per output row and tap (into `rowValues`, one per source column), then
// the columns' taps read them: two passes instead of four reads per tap. Plain locals throughout:
// this runs on every pixel of every cropped frame.
function resample(source: Uint8Array, offset: number, stride: number, xs: AxisTaps, ys: AxisTaps, out: Uint8Array, outOffset: number, outWidth: number): void {
  const { taps: xTaps, index: xIndex, next: xNext, weight: xWeight } = xs;
  const { taps: yTaps, index: yIndex, next: yNext, weight: yWeight } = ys;
  const rows = yIndex.length / yTaps;
  const columns = xIndex.length / xTaps;
  const rowValues = new Float32Array(stride);
  const sums = new Float32Array(columns);
  const scale = 1 / (xTaps * yTaps);
  // Only the source columns the taps read.
  const first = xIndex[0];
  const last = xNext[xNext.length - 1];
  for (let j = 0; j < rows; j++) {
    sums.fill(0);
    for (let k = j * yTaps; k < (j + 1) * yTaps; k++) {
      const top = offset + yIndex[k] * stride;
      const bottom = offset + yNext[k] * stride;
      const weight = yWeight[k];
      for (let x = first; x <= last; x++) {
        const upper = source[top + x];
        rowValues[x] = upper + weight * (source[bottom + x] - upper);
      }
      let t = 0;
      for (let i = 0; i < columns; i++) {
        let total = 0;
        for (let c = 0; c < xTaps; c++, t++) {
          const left = rowValues[xIndex[t]];
          total += left + xWeight[t] * (rowValues[xNext[t]] - left);
        }
        sums[i] += total;
      }
    }
    const row = outOffset + j * outWidth;
    for (let i = 0; i < columns; i++) out[row + i] = sums[i] * scale + 0.5;
  }
}
