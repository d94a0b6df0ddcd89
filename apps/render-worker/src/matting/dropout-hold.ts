// A person does not vanish between two frames (decision 0097). The model sometimes loses someone it
// saw clearly a frame before, most or all of them, for a frame or a few: on a still camera the
// background plate answers for it, on a moving one nothing does. There, where most of a person who
// has been there a while is lost without a cut, the last frame's mask is held for a moment, but only
// where the picture still looks as it did: where someone truly left, their pixels now show what was
// behind them, and a ghost is not held.

export interface DropoutHoldSettings {
  // Mask value from which a grid pixel counts as the person.
  foregroundFrom: number;
  // A frame keeps less than this share of the last frame's person: a dropout.
  keptBelow: number;
  // Fewer grid pixels than this are not a person worth holding (a speck, a hand at the edge).
  minPixels: number;
  // The person must have been in the last frames for this long: what the model saw once is not held.
  seenSeconds: number;
  // Held for at most this long in a row: a model that keeps missing someone is believed.
  holdSeconds: number;
  // A pixel is held only where its luma (0..1) changed by less than this since the last frame.
  sameBelow: number;
  // Mean luma change that marks a cut (the smoother's own): nothing is held across one.
  cutFrom: number;
}

export const DEFAULT_DROPOUT_HOLD: DropoutHoldSettings = {
  foregroundFrom: 0.5,
  keptBelow: 0.7,
  minPixels: 200,
  seenSeconds: 0.3,
  holdSeconds: 0.3,
  sameBelow: 0.06,
  cutFrom: 0.2,
};

export class DropoutHold {
  private readonly previousMask: Float32Array;
  private readonly previousLuma: Float32Array;
  private readonly seenFrames: number;
  private readonly holdFrames: number;
  private started = false;
  // Frames in a row with a person worth holding, and frames held in a row.
  private seen = 0;
  private held = 0;

  constructor(
    pixels: number,
    fps: number,
    private readonly settings: DropoutHoldSettings = DEFAULT_DROPOUT_HOLD,
  ) {
    this.previousMask = new Float32Array(pixels);
    this.previousLuma = new Float32Array(pixels);
    this.seenFrames = Math.max(1, Math.round(settings.seenSeconds * fps));
    this.holdFrames = Math.max(1, Math.round(settings.holdSeconds * fps));
  }

  // Mends `mask` in place where it dropped the person of the last frame; `luma` is the frame at the
  // mask's size. Frames in order, each one, also those where `cameraStill` leaves the mending to the
  // background plate. Returns whether anything was held.
  hold(mask: Float32Array, luma: Float32Array, cameraStill = false): boolean {
    const held = this.started && !cameraStill && this.dropped(mask, luma) && this.restore(mask, luma);
    this.held = held ? this.held + 1 : 0;
    this.seen = this.personPixels(mask) >= this.settings.minPixels ? this.seen + 1 : 0;
    this.previousMask.set(mask);
    this.previousLuma.set(luma);
    this.started = true;
    return held;
  }

  // Whether this frame lost most of a person who has been there a while, without a cut.
  private dropped(mask: Float32Array, luma: Float32Array): boolean {
    const { previousMask, previousLuma, settings } = this;
    if (this.seen < this.seenFrames || this.held >= this.holdFrames) return false;
    let person = 0;
    let kept = 0;
    let change = 0;
    for (let i = 0; i < mask.length; i++) {
      const difference = luma[i] - previousLuma[i];
      change += difference < 0 ? -difference : difference;
      if (previousMask[i] < settings.foregroundFrom) continue;
      person++;
      if (mask[i] >= settings.foregroundFrom) kept++;
    }
    return change / mask.length < settings.cutFrom && person >= settings.minPixels && kept < settings.keptBelow * person;
  }

  // The last frame's mask wherever the picture did not change; whether that held any of it.
  private restore(mask: Float32Array, luma: Float32Array): boolean {
    const { previousMask, previousLuma } = this;
    const { sameBelow } = this.settings;
    let restored = false;
    for (let i = 0; i < mask.length; i++) {
      const before = previousMask[i];
      if (before <= mask[i]) continue;
      const difference = luma[i] - previousLuma[i];
      if (difference >= sameBelow || difference <= -sameBelow) continue;
      mask[i] = before;
      restored = true;
    }
    return restored;
  }

  private personPixels(mask: Float32Array): number {
    const { foregroundFrom } = this.settings;
    let count = 0;
    for (let i = 0; i < mask.length; i++) if (mask[i] >= foregroundFrom) count++;
    return count;
  }
}
