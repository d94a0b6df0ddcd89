import type { BilinearMap } from '../../apps/render-worker/src/matting/bilinear';

// A grid-sized plane scaled up bilinearly to the map's size, as the encoder does, times `gain`
// (1 for 8-bit alpha, 255 for a 0..1 mask), rounded to 8 bits.
export function upscale(plane: ArrayLike<number>, map: BilinearMap, gain: number): Uint8Array {
  const out = new Uint8Array(map.width * map.height);
  for (let y = 0; y < map.height; y++) {
    const top = map.y0[y]! * map.sourceWidth;
    const bottom = map.y1[y]! * map.sourceWidth;
    for (let x = 0; x < map.width; x++) {
      const upper = plane[top + map.x0[x]!]! + map.fx[x]! * (plane[top + map.x1[x]!]! - plane[top + map.x0[x]!]!);
      const lower = plane[bottom + map.x0[x]!]! + map.fx[x]! * (plane[bottom + map.x1[x]!]! - plane[bottom + map.x0[x]!]!);
      out[y * map.width + x] = Math.round(gain * (upper + map.fy[y]! * (lower - upper)));
    }
  }
  return out;
}
