import type { PictureSize } from './region-crop';

// For each cell of the model's grid, the index of its centre pixel in a picture of `size` (never
// smaller than the grid): where the background plate and the quality meter sample a cell.
export function gridCentres(grid: PictureSize, size: PictureSize): Int32Array {
  return Int32Array.from({ length: grid.width * grid.height }, (_, g) => {
    const x = Math.min(size.width - 1, Math.floor((((g % grid.width) + 0.5) * size.width) / grid.width));
    const y = Math.min(size.height - 1, Math.floor(((Math.floor(g / grid.width) + 0.5) * size.height) / grid.height));
    return y * size.width + x;
  });
}
