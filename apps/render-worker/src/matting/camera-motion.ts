import type { PictureSize } from './region-crop';
import { ShiftSearch, type ShiftReference } from './shift-search';

// A camera that pans slowly changes each pixel by less, from one frame to the next, than noise does;
// frame by frame it looks still (decision 0067). Against an anchor frame kept for a while, its movement
// adds up until the background fits better shifted (shift-search.ts). The anchor is the frame where
// the camera was last seen moving, or a frame at most `anchorSeconds` old: a light that changes slowly
// is not taken for movement, and a drift slower than a grid pixel in that time is left to the
// background plate's own shift search.

export interface CameraMotionSettings {
  // How long after the background was last seen shifted the camera still counts as moving: a pan that
  // takes longer than this to move by a grid pixel is not seen.
  settleSeconds: number;
  // The longest an anchor is kept while the background fits it in place.
  anchorSeconds: number;
  // Mask value below which a grid pixel is background, in the frame and in the anchor.
  backgroundBelow: number;
  // A grid pixel whose luma changed by `changeFrom` (0..1) from one frame to the next since the anchor
  // is left out: someone walking that the model missed (or who left the anchor's picture since) fits
  // a shift too, and changes each pixel faster than a pan too slow to see frame by frame.
  changeFrom: number;
}

export const DEFAULT_CAMERA_MOTION: CameraMotionSettings = {
  settleSeconds: 0.5,
  anchorSeconds: 1,
  backgroundBelow: 0.1,
  changeFrom: 0.04,
};

export class CameraMotion {
  private readonly anchor: Float32Array;
  private readonly anchorBackground: Uint8Array;
  private readonly search: ShiftSearch;
  private readonly reference: ShiftReference;
  private readonly settleFrames: number;
  private readonly anchorFrames: number;
  // The frame each grid pixel last changed in.
  private readonly lastChanged: Float64Array;
  // The frame being judged's mask, for the reference's test of the background.
  private mask: Float32Array;
  private frame = 0;
  private anchorFrame = -Infinity;
  private lastMoved = -Infinity;

  constructor(
    grid: PictureSize,
    fps: number,
    private readonly settings: CameraMotionSettings = DEFAULT_CAMERA_MOTION,
  ) {
    const pixels = grid.width * grid.height;
    this.anchor = new Float32Array(pixels);
    this.anchorBackground = new Uint8Array(pixels);
    this.mask = new Float32Array(pixels);
    this.search = new ShiftSearch(grid, 1);
    this.settleFrames = Math.max(2, Math.round(settings.settleSeconds * fps));
    this.anchorFrames = Math.max(2, Math.round(settings.anchorSeconds * fps));
    this.lastChanged = new Float64Array(pixels).fill(-Infinity);
    const { anchor, anchorBackground } = this;
    this.reference = {
      luma: anchor,
      usable: (g) => anchorBackground[g] === 1 && this.mask[g] < settings.backgroundBelow && this.lastChanged[g] < this.anchorFrame,
    };
  }

  // Whether the camera moved within the last settleSeconds, judged on this frame's luma (0..1), the last
  // frame's (read before the first frame's second) and the model's mask on the grid. Frames in order.
  moving(luma: Float32Array, previousLuma: Float32Array, mask: Float32Array): boolean {
    this.frame++;
    this.mask = mask;
    this.noteChanges(luma, previousLuma);
    const verdict = this.anchorFrame === -Infinity ? 'unknown' : this.search.judge(luma, this.reference);
    if (verdict === 'moved') this.lastMoved = this.frame;
    if (verdict === 'moved' || this.anchorFrame === -Infinity || (verdict === 'in place' && this.frame - this.anchorFrame >= this.anchorFrames)) {
      this.anchorAt(luma, mask);
    }
    return this.frame - this.lastMoved < this.settleFrames;
  }

  private noteChanges(luma: Float32Array, previousLuma: Float32Array): void {
    const { lastChanged, frame } = this;
    const { changeFrom } = this.settings;
    // The first frame has nothing to change from.
    if (frame > 1) {
      for (let g = 0; g < luma.length; g++) {
        const change = luma[g] - previousLuma[g];
        if (change >= changeFrom || change <= -changeFrom) lastChanged[g] = frame;
      }
    }
  }

  private anchorAt(luma: Float32Array, mask: Float32Array): void {
    this.anchor.set(luma);
    for (let g = 0; g < mask.length; g++) this.anchorBackground[g] = mask[g] < this.settings.backgroundBelow ? 1 : 0;
    this.anchorFrame = this.frame;
  }
}
