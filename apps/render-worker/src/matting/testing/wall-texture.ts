// A wall's texture for tests, the same every run: -12..12 levels at pixel n. Each seed gives a texture
// of its own, unrelated to the others' (the seed is mixed in before the hash's rounds, not added after).
export function wallTexture(n: number, seed: number): number {
  let t = Math.imul(n + 1, 0x9e3779b1) ^ Math.imul(seed, 0x85ebca77);
  t = Math.imul(t ^ (t >>> 15), 0x2c1b3c6d);
  t = Math.imul(t ^ (t >>> 12), 0x297a2d39);
  t ^= t >>> 15;
  return ((t >>> 0) % 25) - 12;
}
