import { flickerByDistance, keptInBox, scoreMattes } from './matte-score';

const frame = (values: number[]) => Uint8Array.from(values);

describe('scoreMattes', () => {
  it('scores a perfect matte 1 / 0 / 0', () => {
    const reference = [frame([0, 0, 255, 255]), frame([0, 0, 255, 255])];
    expect(scoreMattes(reference, reference)).toEqual({ frames: 2, meanIou: 1, worstIou: 1, worstFrame: 0, frameIous: [1, 1], frameErrors: [{ missed: 0, extra: 0 }, { missed: 0, extra: 0 }], mae: 0, flicker: 0, emptyFrames: 0, emptyKept: 0, mostKeptFrame: null });
  });

  it('takes the foreground at alpha 128, errors on the 0..1 scale and flicker only where the reference is background in both frames', () => {
    const reference = [frame([0, 0, 255, 255]), frame([0, 0, 255, 0])];
    const matte = [frame([0, 51, 255, 127]), frame([102, 0, 255, 0])];
    const score = scoreMattes(matte, reference);
    // Frame 0: foregrounds {2} and {2, 3}: 1/2. Frame 1: {2} and {2}: 1.
    expect(score.meanIou).toBeCloseTo(0.75);
    expect(score.worstIou).toBeCloseTo(0.5);
    expect(score.worstFrame).toBe(0);
    expect(score.mae).toBeCloseTo((51 + 128 + 102) / 8 / 255);
    // Pixels 0 and 1 are background in both frames: |102 - 0| and |0 - 51|.
    expect(score.flicker).toBeCloseTo((102 + 51) / 2 / 255);
  });

  it('counts a frame empty in both as a match and refuses mismatched videos', () => {
    expect(scoreMattes([frame([0, 0])], [frame([0, 0])]).meanIou).toBe(1);
    expect(() => scoreMattes([frame([0])], [frame([0]), frame([0])])).toThrow(/1 matte frames for 2 reference frames/);
  });

  it('scores the frames with nobody in the reference apart: the share of their pixels kept, not an IoU', () => {
    const reference = [frame([0, 0, 0, 0]), frame([0, 255, 255, 0]), frame([0, 0, 0, 0]), frame([100, 0, 0, 0])];
    const matte = [frame([0, 0, 0, 0]), frame([0, 255, 0, 0]), frame([200, 128, 0, 0]), frame([0, 0, 0, 255])];
    const score = scoreMattes(matte, reference);
    // Only frame 1 shows someone (alpha 100 is under the foreground's 128): its IoU is 1/2.
    expect(score.meanIou).toBeCloseTo(0.5);
    expect(score.worstIou).toBeCloseTo(0.5);
    expect(score.worstFrame).toBe(1);
    // Frames 0, 2 and 3 are empty: 0 + 2 + 1 of their 12 pixels kept.
    expect(score.emptyFrames).toBe(3);
    expect(score.emptyKept).toBeCloseTo(3 / 12);
    expect(score.mostKeptFrame).toBe(2);
  });

  it('leaves a sliver of someone (under 0.1 % of the picture) out of both the IoU and the empty frames', () => {
    const sliver = new Uint8Array(2000);
    sliver[0] = 255;
    const person = new Uint8Array(2000).fill(255, 0, 100);
    const score = scoreMattes([new Uint8Array(2000), person], [sliver, person]);
    expect(score).toMatchObject({ meanIou: 1, worstIou: 1, worstFrame: 1, emptyFrames: 0, emptyKept: 0 });
  });

  it('keeps nothing of an empty video that the matte leaves empty, and says no frame is empty when none is', () => {
    const empty = [frame([0, 0]), frame([0, 127])];
    expect(scoreMattes(empty, empty)).toMatchObject({ meanIou: 1, worstIou: 1, emptyFrames: 2, emptyKept: 0, mostKeptFrame: null });
    expect(scoreMattes([frame([255, 255])], [frame([255, 0])])).toMatchObject({ emptyFrames: 0, emptyKept: 0, mostKeptFrame: null });
  });
});

describe('keptInBox', () => {
  // 2x2 frames; the box is the right column.
  const box = { x0: 1, y0: 0, x1: 2, y1: 2 };

  it('takes the share of the box kept over the empty frames only, where the box is in the frame', () => {
    const reference = [frame([0, 0, 0, 0]), frame([255, 0, 0, 0]), frame([0, 0, 0, 0]), frame([0, 0, 0, 0])];
    const matte = [frame([255, 255, 0, 0]), frame([0, 255, 0, 255]), frame([0, 255, 0, 255]), frame([0, 255, 0, 255])];
    // Frame 1 shows someone, frame 3 has the box out of view: frames 0 and 2 give 1 + 2 of 4 pixels.
    expect(keptInBox(matte, reference, 2, [box, box, box, null])).toBeCloseTo(3 / 4);
  });

  it('is 0 where the box is never seen in an empty frame', () => {
    expect(keptInBox([frame([255, 255, 255, 255])], [frame([255, 0, 0, 0])], 2, [box])).toBe(0);
  });
});

describe('flickerByDistance', () => {
  it('splits the flicker into what changes near the reference person and beyond, adding up to the whole', () => {
    // One row of 6: the person at pixel 0 in both frames; pixel 1 is within 1 pixel of them, 3 and 5 beyond.
    const reference = [frame([255, 0, 0, 0, 0, 0]), frame([255, 0, 0, 0, 0, 0])];
    const matte = [frame([255, 200, 0, 0, 0, 51]), frame([255, 100, 0, 0, 0, 0])];
    const split = flickerByDistance(matte, reference, 6, 1);
    expect(split.near).toBeCloseTo(100 / 5 / 255);
    expect(split.beyond).toBeCloseTo(51 / 5 / 255);
    expect(split.near + split.beyond).toBeCloseTo(scoreMattes(matte, reference).flicker);
  });
});
