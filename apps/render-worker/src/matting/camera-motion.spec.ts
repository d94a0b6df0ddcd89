import { CameraMotion, DEFAULT_CAMERA_MOTION } from './camera-motion';

const GRID = { width: 96, height: 54 };
const FPS = 30;
const EMPTY = new Float32Array(GRID.width * GRID.height);

// A gently textured room seen from `dx` grid pixels to the right (fractions too: a pan's frames fall
// between pixels), with `person` (a sharply textured box, left x, width) drawn over it.
function frame(dx: number, person?: { x: number; width: number }): Float32Array {
  return Float32Array.from({ length: GRID.width * GRID.height }, (_, g) => {
    const x = g % GRID.width;
    const y = Math.floor(g / GRID.width);
    if (person && x >= person.x && x < person.x + person.width && y > 10) return (x + y) % 3 === 0 ? 0.9 : 0.2;
    const wx = x + dx;
    return 0.5 + 0.2 * Math.sin(0.12 * wx + Math.sin(0.1 * y)) + 0.15 * Math.sin(0.13 * y + 0.05 * wx);
  });
}

// Each frame judged with the one before it, as StillObjectFilter does.
function judge(camera: CameraMotion, frames: Float32Array[]): boolean[] {
  return frames.map((luma, n) => camera.moving(luma, frames[n - 1] ?? new Float32Array(luma.length), EMPTY));
}

describe('CameraMotion', () => {
  it('never finds a still camera moving', () => {
    const camera = new CameraMotion(GRID, FPS);
    const moving = judge(camera, Array.from({ length: 60 }, () => frame(0)));
    expect(moving.some(Boolean)).toBe(false);
  });

  it('finds a pan too slow to change a pixel much from one frame to the next, within a few frames, and lets go once it stops', () => {
    const camera = new CameraMotion(GRID, FPS);
    // A third of a grid pixel a frame for 2 s, then still for 1 s.
    const moving = judge(camera, Array.from({ length: 90 }, (_, n) => frame(Math.min(n, 60) / 3)));
    const firstMoving = moving.indexOf(true);
    expect(firstMoving).toBeGreaterThan(0);
    expect(firstMoving).toBeLessThanOrEqual(6);
    expect(moving.slice(firstMoving, 60).every(Boolean)).toBe(true);
    const settleFrames = DEFAULT_CAMERA_MOTION.settleSeconds * FPS;
    expect(moving.slice(60 + settleFrames + 1).some(Boolean)).toBe(false);
  });

  it('does not take someone the model missed, walking across a still room, for the camera moving', () => {
    const camera = new CameraMotion(GRID, FPS);
    // Two grid pixels a frame, a quarter of the picture wide.
    const moving = judge(camera, Array.from({ length: 30 }, (_, n) => frame(0, { x: 2 * n, width: 24 })));
    expect(moving.some(Boolean)).toBe(false);
  });
});
