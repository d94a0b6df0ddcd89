import { CameraMotion, DEFAULT_CAMERA_MOTION, type CameraMotionSettings } from './camera-motion';

// Nothing but people (decision 0066): on a still camera, a patch of the mask that has shown no movement
// for a while and that the model is not sure of is a thing (a table's base, a coat on a chair), not
// a person; it is taken out of the matte. A person moves, or the model answers them with confidence:
// someone who stands still is kept by the model's certainty, a chair is not. Nothing is judged while
// the camera moves (a pan moves every pixel, camera-motion.ts) or until it has been seen still again,
// except in the video's opening frames (decision 0067).

export interface StillObjectSettings {
  // Mask value from which a grid pixel belongs to a patch: the alpha ramp's start, below which
  // nothing shows anyway.
  foregroundFrom: number;
  // Luma change (0..1) between consecutive frames from which a pixel counts as moving.
  motionFrom: number;
  // A patch moved recently when at least `activeShare` of its pixels moved within `activeSeconds`.
  activeSeconds: number;
  activeShare: number;
  // A patch at least `confidentShare` of whose pixels reach `confidentFrom` is the model's sure answer.
  confidentFrom: number;
  confidentShare: number;
  // Share of the background's pixels moving from which the camera counts as moving (or a cut).
  cameraMovingShare: number;
  // Consecutive still frames before the camera counts as still.
  stillFramesNeeded: number;
  // Movement too slow to change a pixel much from one frame to the next (a slow pan).
  cameraMotion: CameraMotionSettings;
}

export const DEFAULT_STILL_OBJECTS: StillObjectSettings = {
  foregroundFrom: 0.3,
  motionFrom: 0.04,
  activeSeconds: 2,
  activeShare: 0.03,
  confidentFrom: 0.9,
  confidentShare: 0.5,
  cameraMovingShare: 0.3,
  stillFramesNeeded: 2,
  cameraMotion: DEFAULT_CAMERA_MOTION,
};

// A pixel that has never moved.
const NEVER = -1e9;

export class StillObjectFilter {
  private readonly previousLuma: Float32Array;
  // The frame each grid pixel last moved in.
  private readonly lastMoved: Float64Array;
  // Each pixel's patch (0: none), the stack the labelling walks, and the last patch's pixels.
  private readonly labels: Int32Array;
  private readonly stack: Int32Array;
  private readonly members: Int32Array;
  private readonly activeFrames: number;
  private readonly camera: CameraMotion;
  private frame = 0;
  private stillFrames = 0;

  constructor(
    private readonly width: number,
    height: number,
    private readonly fps: number,
    private readonly settings: StillObjectSettings = DEFAULT_STILL_OBJECTS,
  ) {
    const pixels = width * height;
    this.previousLuma = new Float32Array(pixels);
    this.lastMoved = new Float64Array(pixels).fill(NEVER);
    this.labels = new Int32Array(pixels);
    this.stack = new Int32Array(pixels);
    this.members = new Int32Array(pixels);
    this.activeFrames = Math.max(2, Math.round(settings.activeSeconds * fps));
    this.camera = new CameraMotion({ width, height }, fps, settings.cameraMotion);
  }

  // Takes the still, unsure patches out of `mask` (in place); `luma` is the frame at the mask's size.
  // Frames in order. Returns whether the camera is known to be still (background-plate.ts).
  filter(mask: Float32Array, luma: Float32Array): boolean {
    this.frame++;
    const cameraMoving = this.camera.moving(luma, this.previousLuma, mask);
    const cameraStill = this.frame > 1 && this.noteMovement(mask, luma, cameraMoving);
    this.previousLuma.set(luma);
    this.stillFrames = cameraStill ? this.stillFrames + 1 : 0;
    // The video's first frames, before the camera can have been seen still, are judged as if it were
    // until it is seen moving: nothing in them has moved yet, so a table in the opening frames is
    // taken out like the same table later. The plate waits until the camera is known to be still.
    const opening = this.frame === this.stillFrames + 1 && this.frame <= this.settings.stillFramesNeeded;
    if (this.stillFrames < this.settings.stillFramesNeeded && !opening) return false;
    this.dropStillPatches(mask);
    return !opening;
  }

  // Whether the camera has been seen still since the first frame, as far as the frames so far tell
  // (the opening frames, before it is known still, included).
  get stillSinceFirstFrame(): boolean {
    return this.stillFrames === this.frame - 1;
  }

  // Marks the pixels that moved since the last frame; whether the camera stood still, judged on the
  // background's pixels and on `cameraMoving` (CameraMotion). While it moves every pixel counts as
  // moving: what the pan showed tells nothing of what moves in the scene.
  private noteMovement(mask: Float32Array, luma: Float32Array, cameraMoving: boolean): boolean {
    const { previousLuma, lastMoved, frame, settings } = this;
    let background = 0;
    let backgroundMoving = 0;
    for (let i = 0; i < luma.length; i++) {
      const change = luma[i] - previousLuma[i];
      const moving = change >= settings.motionFrom || change <= -settings.motionFrom;
      if (moving) lastMoved[i] = frame;
      if (mask[i] < settings.foregroundFrom) {
        background++;
        if (moving) backgroundMoving++;
      }
    }
    // A picture with no background pixel (the person fills it) tells nothing of the camera: it is not
    // taken as still (no pixel moving is not less than a share of none).
    const still = !cameraMoving && backgroundMoving < settings.cameraMovingShare * background;
    if (!still) lastMoved.fill(frame);
    return still;
  }

  // 1 for each pixel that moved within the last `seconds` (at least this frame), else 0, into `out`.
  movedWithin(seconds: number, out: Uint8Array): Uint8Array {
    const recent = this.frame - Math.max(1, Math.round(seconds * this.fps));
    for (let i = 0; i < out.length; i++) out[i] = this.lastMoved[i] > recent ? 1 : 0;
    return out;
  }

  private dropStillPatches(mask: Float32Array): void {
    const { labels, members, settings } = this;
    labels.fill(0);
    let label = 0;
    for (let i = 0; i < mask.length; i++) {
      if (labels[i] !== 0 || mask[i] < settings.foregroundFrom) continue;
      label++;
      const { pixels, active, confident } = this.fill(mask, i, label);
      if (active >= settings.activeShare * pixels || confident >= settings.confidentShare * pixels) continue;
      for (let k = 0; k < pixels; k++) mask[members[k]] = 0;
    }
  }

  // Labels the 4-connected patch of foreground around `seed` (its pixels into `members`), counting
  // them, those that moved recently and those the model is sure of.
  private fill(mask: Float32Array, seed: number, label: number): { pixels: number; active: number; confident: number } {
    const { labels, stack, members, lastMoved, width, settings } = this;
    const recent = this.frame - this.activeFrames;
    let top = 0;
    let pixels = 0;
    let active = 0;
    let confident = 0;
    labels[seed] = label;
    stack[top++] = seed;
    while (top > 0) {
      const i = stack[--top];
      members[pixels++] = i;
      if (lastMoved[i] > recent) active++;
      if (mask[i] >= settings.confidentFrom) confident++;
      const x = i % width;
      // Left, right, up, down; no closure, as this runs on every foreground pixel of every frame.
      for (let side = 0; side < 4; side++) {
        const j = neighbour(i, x, side, width, mask.length);
        if (j < 0 || labels[j] !== 0 || mask[j] < settings.foregroundFrom) continue;
        labels[j] = label;
        stack[top++] = j;
      }
    }
    return { pixels, active, confident };
  }
}

// Pixel i's neighbour on `side` (0 left, 1 right, 2 up, 3 down; x: i's column), or -1 past the edge.
function neighbour(i: number, x: number, side: number, width: number, pixels: number): number {
  if (side === 0) return x > 0 ? i - 1 : -1;
  if (side === 1) return x < width - 1 ? i + 1 : -1;
  if (side === 2) return i - width;
  return i + width < pixels ? i + width : -1;
}
