import { cameraPath, worldSize } from './camera';

describe('cameraPath', () => {
  const frame = { width: 640, height: 360 };

  it('looks at the frame itself when still, and pans from the wider world\'s left to its right', () => {
    expect(worldSize({ kind: 'static' }, frame)).toEqual(frame);
    expect(cameraPath({ kind: 'static' }, 3, 30)).toEqual([{ x: 0, y: 0 }, { x: 0, y: 0 }, { x: 0, y: 0 }]);
    expect(worldSize({ kind: 'pan', travel: 100 }, frame)).toEqual({ width: 740, height: 360 });
    const pan = cameraPath({ kind: 'pan', travel: 100 }, 11, 10);
    expect(pan[0]).toEqual({ x: 0, y: 0 });
    expect(pan[5]).toEqual({ x: 50, y: 0 });
    expect(pan[10]).toEqual({ x: 100, y: 0 });
    expect(pan.every((offset, i) => i === 0 || offset.x >= pan[i - 1]!.x)).toBe(true);
  });

  it('keeps a shaking window inside its world, the same on every run', () => {
    const shake = { kind: 'shake', amplitude: 8, seed: 3 } as const;
    const world = worldSize(shake, frame);
    const path = cameraPath(shake, 90, 30);
    expect(path.every(({ x, y }) => x >= 0 && y >= 0 && x + frame.width <= world.width && y + frame.height <= world.height)).toBe(true);
    expect(new Set(path.map(({ x, y }) => `${x},${y}`)).size).toBeGreaterThan(10);
    expect(cameraPath(shake, 90, 30)).toEqual(path);
  });
});
