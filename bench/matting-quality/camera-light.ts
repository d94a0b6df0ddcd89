import { seededRandom } from './camera';
import type { CameraLight } from './clip-spec';
import type { Size } from './walk-path';

// What a real camera adds to a drawn frame (CameraLight): none of it is a person, so the exact alpha
// stays as pasted.

// The people's shadow on the wall: `silhouette` (the frame's people, before they are pasted) moved,
// blurred and taken off the wall's light.
export function shadeWall(rgb: Uint8Array, frame: Size, silhouette: Uint8Array, shadow: NonNullable<CameraLight['shadow']>): void {
  const dx = Math.round(shadow.offset[0] * frame.height);
  const dy = Math.round(shadow.offset[1] * frame.height);
  const moved = new Float32Array(frame.width * frame.height);
  for (let y = 0; y < frame.height; y++) {
    const fromY = y + dy;
    if (fromY < 0 || fromY >= frame.height) continue;
    for (let x = 0; x < frame.width; x++) {
      const fromX = x - dx;
      if (fromX >= 0 && fromX < frame.width) moved[y * frame.width + x] = silhouette[fromY * frame.width + fromX]! / 255;
    }
  }
  const soft = boxBlur(boxBlur(moved, frame, shadow.blur, 1, frame.width), frame, shadow.blur, frame.width, 1);
  for (let i = 0; i < soft.length; i++) {
    const light = 1 - shadow.darkness * soft[i]!;
    if (light < 1) for (let c = 0; c < 3; c++) rgb[3 * i + c] = Math.round(rgb[3 * i + c]! * light);
  }
}

// The camera's gain at `t` and its grain, over the whole composited frame.
export function exposeAndGrain(rgb: Uint8Array, light: CameraLight, t: number, random: () => number): void {
  const gain = light.exposure ? 1 + light.exposure.swing * Math.sin((2 * Math.PI * t) / light.exposure.period) : 1;
  const grain = light.grain ?? 0;
  for (let i = 0; i < rgb.length; i++) {
    const value = rgb[i]! * gain + (grain > 0 ? grain * gaussian(random) : 0);
    rgb[i] = Math.max(0, Math.min(255, Math.round(value)));
  }
}

// The grain's numbers: the same for the same clip on every run.
export const grainRandom = (clipName: string): (() => number) => seededRandom([...clipName].reduce((hash, c) => Math.imul(hash ^ c.charCodeAt(0), 16777619), 2166136261));

// Box-Muller.
function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

// A running mean over 2 * radius + 1 samples along rows (step 1) or columns (step width).
function boxBlur(values: Float32Array, frame: Size, radius: number, lineStep: number, sampleStep: number): Float32Array {
  const out = new Float32Array(values.length);
  const lines = sampleStep === 1 ? frame.height : frame.width;
  const length = sampleStep === 1 ? frame.width : frame.height;
  for (let line = 0; line < lines; line++) {
    const base = line * lineStep;
    let sum = 0;
    for (let i = -radius; i <= radius; i++) sum += values[base + clamp(i, length) * sampleStep]!;
    for (let i = 0; i < length; i++) {
      out[base + i * sampleStep] = sum / (2 * radius + 1);
      sum += values[base + clamp(i + radius + 1, length) * sampleStep]! - values[base + clamp(i - radius, length) * sampleStep]!;
    }
  }
  return out;
}

const clamp = (i: number, length: number): number => Math.max(0, Math.min(length - 1, i));
