import type { CameraSpec } from './clip-spec';
import type { Point, Size } from './walk-path';

// The world the camera looks into: the frame itself for a still camera, wider or taller by what the
// camera's window travels.
export function worldSize(camera: CameraSpec, frame: Size): Size {
  if (camera.kind === 'pan') return { width: frame.width + camera.travel, height: frame.height };
  if (camera.kind === 'shake') return { width: frame.width + 2 * camera.amplitude, height: frame.height + 2 * camera.amplitude };
  return frame;
}

// The frame's top-left corner in the world for each frame, in whole pixels.
export function cameraPath(camera: CameraSpec, frames: number, fps: number): Point[] {
  const at = (frame: number): Point => {
    const t = frame / fps;
    // From the first frame to the last.
    if (camera.kind === 'pan') return { x: Math.round((camera.travel * (1 - Math.cos((Math.PI * frame) / Math.max(1, frames - 1)))) / 2), y: 0 };
    if (camera.kind === 'shake') {
      const { amplitude, seed } = camera;
      return { x: amplitude + Math.round(amplitude * wander(t, seed)), y: amplitude + Math.round(amplitude * wander(t, seed + 1)) };
    }
    return { x: 0, y: 0 };
  };
  return Array.from({ length: frames }, (_, frame) => at(frame));
}

// A hand's drift along one axis, -1 to 1: three sines of 0.7 to 3 Hz with phases drawn from the seed.
const SHAKE_HZ = [0.7, 1.6, 3];
function wander(t: number, seed: number): number {
  const phase = seededRandom(seed);
  return SHAKE_HZ.reduce((sum, hz) => sum + Math.sin(2 * Math.PI * (hz * t + phase())), 0) / SHAKE_HZ.length;
}

// mulberry32: the same numbers for the same seed on every run.
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
