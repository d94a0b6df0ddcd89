import type { PictureSize } from './region-crop';

// The model-size frame (planar yuv444p at `model`) from a side frame exactly twice that size
// (planar yuv420p): each luma value the rounded mean of its 2x2 block, the chroma planes as they
// are (at half the side's resolution they are the model's size already). When the decoder's side
// frame is that size (tracking a large picture), it writes it alone and the worker makes the
// model's frame: one scaled output and its bytes through a pipe fewer a frame (decision 0053).
export function halveSideFrame(side: Uint8Array, model: PictureSize, out: Uint8Array): Uint8Array {
  const { width, height } = model;
  const sideWidth = width * 2;
  for (let y = 0, i = 0; y < height; y++) {
    let top = y * 2 * sideWidth;
    let bottom = top + sideWidth;
    for (let x = 0; x < width; x++, i++, top += 2, bottom += 2) {
      out[i] = (side[top] + side[top + 1] + side[bottom] + side[bottom + 1] + 2) >> 2;
    }
  }
  const pixels = width * height;
  // Both chroma planes follow the side's luma, one after the other, as they follow the model's.
  out.set(side.subarray(pixels * 4, pixels * 6), pixels);
  return out;
}

// Whether the model's frame can be made from this side frame (see halveSideFrame).
export function halvesTo(side: PictureSize, model: PictureSize): boolean {
  return side.width === model.width * 2 && side.height === model.height * 2;
}
