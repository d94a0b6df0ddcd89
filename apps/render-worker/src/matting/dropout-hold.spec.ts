import { DEFAULT_DROPOUT_HOLD, DropoutHold } from './dropout-hold';

const WIDTH = 40;
const PIXELS = WIDTH * WIDTH;
const FPS = 10;
const { seenSeconds, holdSeconds, sameBelow, cutFrom, minPixels } = DEFAULT_DROPOUT_HOLD;
const SEEN_FRAMES = Math.round(seenSeconds * FPS);
const HOLD_FRAMES = Math.round(holdSeconds * FPS);

// A person: a 20x20 square of 0.95 at the grid's middle (400 grid pixels, above minPixels).
const PERSON = Array.from({ length: PIXELS }, (_, i) => {
  const x = i % WIDTH;
  const y = Math.floor(i / WIDTH);
  return x >= 10 && x < 30 && y >= 10 && y < 30;
});
const person = (value = 0.95) => Float32Array.from(PERSON, (inside) => (inside ? value : 0));
const empty = () => new Float32Array(PIXELS);
const picture = (value = 0.4) => new Float32Array(PIXELS).fill(value);
const covered = (mask: Float32Array) => mask.filter((value) => value >= 0.5).length;

// A hold that has seen the person long enough to hold them.
function holdAfterSeeing(luma = picture()): DropoutHold {
  const hold = new DropoutHold(PIXELS, FPS);
  for (let frame = 0; frame < SEEN_FRAMES; frame++) expect(hold.hold(person(), luma)).toBe(false);
  return hold;
}

describe('DropoutHold', () => {
  it('holds a person the model lost for a frame, where the picture did not change', () => {
    expect(minPixels).toBeLessThan(400);
    const hold = holdAfterSeeing();
    const mask = empty();
    expect(hold.hold(mask, picture())).toBe(true);
    expect(covered(mask)).toBe(400);
    // The next frame's own answer stands again.
    const next = person(0.9);
    expect(hold.hold(next, picture())).toBe(false);
    expect(next[20 * WIDTH + 20]).toBeCloseTo(0.9, 6);
  });

  it('holds nothing where the picture changed: someone who left shows what was behind them', () => {
    const hold = holdAfterSeeing();
    const mask = empty();
    const luma = picture();
    // The left half of the square now shows a different picture.
    for (let i = 0; i < PIXELS; i++) if (i % WIDTH < 20) luma[i] = 0.4 + sameBelow * 2;
    hold.hold(mask, luma);
    expect(covered(mask)).toBe(200);
    expect(mask[20 * WIDTH + 15]).toBe(0);
  });

  it('leaves the mending to the background plate while the camera is still, and keeps counting', () => {
    const hold = holdAfterSeeing();
    const mask = empty();
    expect(hold.hold(mask, picture(), true)).toBe(false);
    expect(covered(mask)).toBe(0);
    const seenAgain = new DropoutHold(PIXELS, FPS);
    for (let frame = 0; frame < SEEN_FRAMES; frame++) seenAgain.hold(person(), picture(), true);
    expect(seenAgain.hold(empty(), picture(), false)).toBe(true);
  });

  it('holds for at most holdSeconds in a row: a model that keeps missing someone is believed', () => {
    const hold = holdAfterSeeing();
    for (let frame = 0; frame < HOLD_FRAMES; frame++) expect(hold.hold(empty(), picture())).toBe(true);
    const mask = empty();
    expect(hold.hold(mask, picture())).toBe(false);
    expect(covered(mask)).toBe(0);
  });

  it('does not hold what the model saw for less than seenSeconds', () => {
    const hold = new DropoutHold(PIXELS, FPS);
    for (let frame = 0; frame < SEEN_FRAMES - 1; frame++) hold.hold(person(), picture());
    const mask = empty();
    expect(hold.hold(mask, picture())).toBe(false);
    expect(covered(mask)).toBe(0);
  });

  it('holds nothing across a cut', () => {
    const hold = holdAfterSeeing();
    const mask = empty();
    // Every pixel changes by more than a cut's mean, except the square's, which stays.
    const luma = Float32Array.from(PERSON, (inside) => (inside ? 0.4 : 0.4 + cutFrom * 1.5));
    expect(hold.hold(mask, luma)).toBe(false);
    expect(covered(mask)).toBe(0);
  });

  it('leaves a frame that kept most of the person as the model answered it', () => {
    const hold = holdAfterSeeing();
    // Three quarters of the square kept, the rest lost.
    const mask = Float32Array.from(PERSON, (inside, i) => (inside && Math.floor(i / WIDTH) < 25 ? 0.95 : 0));
    expect(hold.hold(mask, picture())).toBe(false);
    expect(covered(mask)).toBe(300);
  });
});
