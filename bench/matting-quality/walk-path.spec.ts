import { pingPong, positionAt } from './walk-path';

describe('positionAt', () => {
  const person = { width: 100, height: 200 };
  const world = { width: 800, height: 400 };
  const restY = 200;

  it('rises from below the bottom edge to the spot, stands, and sinks back, at one speed', () => {
    // 200 px up and 200 down in the 2 s of walking: 1 s each way, around a 1 s pause.
    const path = { kind: 'through', from: 'bottom', to: 'bottom', start: 1, end: 4, pause: 1, lane: 0.5 } as const;
    const at = (t: number) => positionAt(path, person, world, restY, 5, t);
    expect(at(0)).toEqual({ x: 350, y: 400 });
    expect(at(1.5)).toEqual({ x: 350, y: 300 });
    expect(at(2)).toEqual({ x: 350, y: 200 });
    expect(at(2.9)).toEqual({ x: 350, y: 200 });
    expect(at(3.5)).toEqual({ x: 350, y: 300 });
    expect(at(4.5)).toEqual({ x: 350, y: 400 });
  });

  it('walks in from the left and out by the right, wholly outside before and after', () => {
    const path = { kind: 'through', from: 'left', to: 'right', start: 0, end: 2 } as const;
    const at = (t: number) => positionAt(path, person, world, restY, 2, t);
    expect(at(0)).toEqual({ x: -100, y: 200 });
    expect(at(1)).toEqual({ x: 350, y: 200 });
    expect(at(2)).toEqual({ x: 800, y: 200 });
  });

  it('shares the walking time by distance: a spot near the exit edge is left later', () => {
    // From the top (400 px: y -200 to 200 at x 70) to the left edge (170 px: x 70 to -100).
    const path = { kind: 'through', from: 'top', to: 'left', start: 0, end: 570, lane: 0.1 } as const;
    expect(positionAt(path, person, world, restY, 600, 200)).toEqual({ x: 70, y: 0 });
    expect(positionAt(path, person, world, restY, 600, 400)).toEqual({ x: 70, y: 200 });
    expect(positionAt(path, person, world, restY, 600, 485)).toEqual({ x: -15, y: 200 });
  });

  it('walks across inside the frame for the whole clip (the issue-14 clips)', () => {
    const path = { kind: 'across', leftward: true, inset: 20 } as const;
    expect(positionAt(path, person, world, restY, 4, 0)).toEqual({ x: 680, y: 200 });
    expect(positionAt(path, person, world, restY, 4, 4)).toEqual({ x: 20, y: 200 });
  });
});

describe('pingPong', () => {
  it('plays the frames forward, then backward, without repeating the turning frames', () => {
    expect(Array.from({ length: 9 }, (_, i) => pingPong(i, 4))).toEqual([0, 1, 2, 3, 2, 1, 0, 1, 2]);
    expect(pingPong(5, 1)).toBe(0);
  });
});
