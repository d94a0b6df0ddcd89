import { DEFAULT_STILL_OBJECTS, StillObjectFilter } from './still-object-filter';

const [WIDTH, HEIGHT] = [20, 10];
const FPS = 10;

// A plane with `value` inside the box (x1, y1 exclusive) and `outside` elsewhere.
function plane(box: [number, number, number, number] | null, value: number, outside = 0): Float32Array {
  const out = new Float32Array(WIDTH * HEIGHT).fill(outside);
  if (!box) return out;
  const [x0, y0, x1, y1] = box;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) out[y * WIDTH + x] = value;
  return out;
}

const at = (x: number, y: number) => y * WIDTH + x;
// A table: the model answers it at 0.7, not sure.
const TABLE: [number, number, number, number] = [2, 5, 6, 9];
const ROOM = 0.3;

describe('StillObjectFilter', () => {
  it('takes an unsure patch that never moves out of the mask from the first frame, while the camera is still', () => {
    const filter = new StillObjectFilter(WIDTH, HEIGHT, FPS);
    const kept: number[] = [];
    const cameraStill: boolean[] = [];
    for (let frame = 0; frame < 4; frame++) {
      const mask = plane(TABLE, 0.7);
      cameraStill.push(filter.filter(mask, plane(TABLE, 0.1, ROOM)));
      kept.push(mask[at(3, 6)]);
    }
    expect(kept).toEqual([0, 0, 0, 0]);
    // The opening frames are judged as still; the camera is known to be only once it has been seen still.
    expect(cameraStill).toEqual([false, false, true, true]);
  });

  it('keeps a patch the model is sure of, though it stands still (a person who does not move)', () => {
    const filter = new StillObjectFilter(WIDTH, HEIGHT, FPS);
    for (let frame = 0; frame < 4; frame++) {
      const mask = plane(TABLE, 0.97);
      filter.filter(mask, plane(TABLE, 0.1, ROOM));
      expect(mask[at(3, 6)]).toBeCloseTo(0.97);
    }
  });

  it('keeps an unsure patch that moves, and for a while after it stops, from the first frame it is seen moving', () => {
    const filter = new StillObjectFilter(WIDTH, HEIGHT, FPS);
    const kept: boolean[] = [];
    for (let frame = 0; frame < 30; frame++) {
      // Walking right one pixel a frame for 8 frames, then standing.
      const x = 2 + Math.min(frame, 8);
      const box: [number, number, number, number] = [x, 2, x + 3, 9];
      const mask = plane(box, 0.7);
      filter.filter(mask, plane(box, 0.8, ROOM));
      kept.push(mask[at(x + 1, 5)] > 0);
    }
    const stoodAt = 8;
    const activeFrames = DEFAULT_STILL_OBJECTS.activeSeconds * FPS;
    // The first frame is the video's: nothing has moved yet, and what the model is unsure of is taken out.
    expect(kept[0]).toBe(false);
    expect(kept.slice(1, stoodAt + activeFrames).every(Boolean)).toBe(true);
    expect(kept.slice(stoodAt + activeFrames + 1).some(Boolean)).toBe(false);
  });

  it('judges nothing once the camera is seen moving', () => {
    const filter = new StillObjectFilter(WIDTH, HEIGHT, FPS);
    for (let frame = 0; frame < 6; frame++) {
      const mask = plane(TABLE, 0.7);
      // Every background pixel changes from frame to frame: a pan.
      filter.filter(mask, plane(TABLE, 0.1, frame % 2 === 0 ? 0.2 : 0.5));
      // The first frame cannot tell (see above).
      if (frame > 0) expect(mask[at(3, 6)]).toBeCloseTo(0.7);
    }
  });

  it('tells whether the camera has stood still since the first frame, the opening frames included, until it is seen moving', () => {
    const filter = new StillObjectFilter(WIDTH, HEIGHT, FPS);
    const room = [ROOM, ROOM, ROOM, 0.6, ROOM];
    const still = room.map((value) => {
      filter.filter(plane(TABLE, 0.7), plane(TABLE, 0.1, value));
      return filter.stillSinceFirstFrame;
    });
    // The whole room changes at the fourth frame (a pan, a cut): from then on, no.
    expect(still).toEqual([true, true, true, false, false]);
  });

  it('takes out only the still patch, not a moving one beside it', () => {
    const filter = new StillObjectFilter(WIDTH, HEIGHT, FPS);
    let mask: Float32Array = new Float32Array(0);
    for (let frame = 0; frame < 5; frame++) {
      const walker: [number, number, number, number] = [10 + frame, 2, 13 + frame, 9];
      mask = plane(TABLE, 0.7);
      plane(walker, 0.7).forEach((value, i) => (mask[i] = Math.max(mask[i], value)));
      const luma = plane(walker, 0.8, ROOM);
      filter.filter(mask, luma);
    }
    expect(mask[at(3, 6)]).toBe(0);
    expect(mask[at(15, 5)]).toBeCloseTo(0.7);
  });
});
