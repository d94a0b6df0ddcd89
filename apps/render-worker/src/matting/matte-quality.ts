import { gridCentres } from './grid-centres';
import type { PictureSize } from './region-crop';

// The cut-out's figures for the quality report (decision 0096), taken from each delivered matte at
// the centre of every cell of the model's grid (one sample a cell: the report costs next to nothing
// a frame): the frames whose matte shows a person (at least PERSON_SHARE of the samples at alpha
// 128 or more, as bench/matting-quality counts them), and flicker, the mean change of alpha from one
// frame to the next (0 to 1) where the picture itself did not change (the grid's luma moved less
// than STILL_BELOW): a still picture whose matte changes is what the eye sees as flicker.
const PERSON_SHARE = 0.001;
const STILL_BELOW = 0.04;

export interface MatteQuality {
  frames: number;
  framesWithPerson: number;
  flicker: number;
  // The samples flicker is the mean over: segments' figures add up by them (segment-join.ts).
  stillSamples: number;
}

export class MatteQualityMeter {
  private readonly centres: Int32Array;
  private readonly previousAlpha: Uint8Array;
  private readonly previousLuma: Float32Array;
  private frames = 0;
  private framesWithPerson = 0;
  private changeSum = 0;
  private stillSamples = 0;
  private seenBefore = false;

  // `warmupFrames`: the first frames observed are not delivered (a segment's warm-up): they are not
  // counted, and the first delivered one's change from the last of them is, as in one run.
  constructor(
    grid: PictureSize,
    alpha: PictureSize,
    private warmupFrames = 0,
  ) {
    this.centres = gridCentres(grid, alpha);
    this.previousAlpha = new Uint8Array(this.centres.length);
    this.previousLuma = new Float32Array(this.centres.length);
  }

  // One delivered matte, in frame order, with the frame's luma on the grid (0..1).
  observe(alpha: Uint8Array, gridLuma: Float32Array): void {
    const { centres, previousAlpha, previousLuma } = this;
    const counted = this.warmupFrames === 0;
    const first = !this.seenBefore;
    let person = 0;
    for (let g = 0; g < centres.length; g++) {
      const value = alpha[centres[g]];
      if (value >= 128) person++;
      if (counted && !first && Math.abs(gridLuma[g] - previousLuma[g]) < STILL_BELOW) {
        this.changeSum += Math.abs(value - previousAlpha[g]);
        this.stillSamples++;
      }
      previousAlpha[g] = value;
    }
    previousLuma.set(gridLuma);
    this.seenBefore = true;
    if (!counted) {
      this.warmupFrames--;
      return;
    }
    this.frames++;
    if (person >= PERSON_SHARE * centres.length) this.framesWithPerson++;
  }

  get figures(): MatteQuality {
    return { frames: this.frames, framesWithPerson: this.framesWithPerson, flicker: this.stillSamples === 0 ? 0 : this.changeSum / this.stillSamples / 255, stillSamples: this.stillSamples };
  }
}
