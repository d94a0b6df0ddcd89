import { scoreMattes } from './matte-score';

const frame = (values: number[]) => Uint8Array.from(values);

describe('scoreMattes', () => {
  it('scores a perfect matte 1 / 0 / 0', () => {
    const reference = [frame([0, 0, 255, 255]), frame([0, 0, 255, 255])];
    expect(scoreMattes(reference, reference)).toEqual({ frames: 2, meanIou: 1, worstIou: 1, worstFrame: 0, mae: 0, flicker: 0 });
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
});
