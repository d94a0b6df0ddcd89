import { gridCentres } from './grid-centres';
import { lumaOf } from './model-input';
import type { PictureSize } from './region-crop';
import { FOLLOWS, ShadowTexture, UNTOLD, type ShadowTextureSettings } from './shadow-texture';
import { ShiftSearch, type ShiftReference } from './shift-search';

// A still camera is an advantage (decision 0066): each pixel of the scene shows its background whenever
// nobody covers it, so a plate of the background is learned from those frames, and the difference
// of a frame to it says, at the picture's own resolution, where someone is. Fused with the model's
// alpha: where the picture matches the plate the alpha is pulled towards background (the halo
// around a person, the gap between the legs, an object that is part of the scene); near the person
// the model found, where it differs clearly the alpha is pulled towards the person (a foot, a hand the
// model's coarse mask missed). Where the plate is not known (a person who never moves, the first
// frames) the model's alpha stands; the plate is dropped whenever the camera moves.

export interface PlateSettings {
  // Share of the new picture taken into a pixel's plate each frame it shows the background.
  learnRate: number;
  // Frames a pixel must have shown the background before its plate is trusted.
  knownAfter: number;
  // Every row learns on every frame, instead of each row on every other frame: for a plate pass over a
  // few frames a second (decision 0100), where background uncovered for one pass frame would otherwise
  // be learned in half its rows.
  everyRow: boolean;
  // A grid pixel shows the background where the model's mask there, and within `learnMargin` grid
  // pixels around, is below `learnBelow`; or, for a faint answer (below one half: the matte shows
  // nothing there), where its picture has not moved for `faintSettledSeconds`. The model answers
  // some floors and walls faintly in every frame: left unlearned, the plate had a hole there, and
  // someone entering over it was not seen coming in. A faint answer that moves is someone the model
  // barely sees, and is not learned.
  learnBelow: number;
  faintSettledSeconds: number;
  learnMargin: number;
  // Grid pixels around the model's person (mask at 0.5 or more) where a difference may add to it: as
  // far as a swinging arm the model misses reaches (at 3, only the part of it nearest the body came back).
  reach: number;
  // Difference to the plate (luma and weighted chroma, 0..1 each, summed) up to which a pixel matches it, and
  // from which it clearly differs; the evidence runs from -matchWeight to +differWeight between, in
  // logits added to the model's.
  matchBelow: number;
  differFrom: number;
  // How many times a pixel's chroma difference counts against a luma one of the same size (in the
  // evidence and in shadowChroma): natural colours span a few tens of chroma levels where luma spans
  // two hundred, and chroma is less noisy (averaged over 2x2 pixels in 4:2:0), so skin before a beige
  // wall, a few chroma levels apart at the same brightness, matched it and came out with holes. The
  // grid's clear differences (markDifferences) stay unweighted: weighted, a webcam's chroma noise at
  // the picture's edge was taken for someone entering.
  chromaWeight: number;
  matchWeight: number;
  differWeight: number;
  // The weight of a region's mean evidence (gatherAround), added to the pixel's own.
  regionWeight: number;
  // Where the model is sure (alpha at least `sureFrom`), matching the plate takes the alpha no lower
  // than just over one half unless the region matches as a whole (its mean evidence at or below
  // `sceneRegionBelow`): a light face before a light wall matches it pixel by pixel, by chance, and
  // came out with holes; a coat on a chair beside the person matches all over (decision 0072).
  sureFrom: number;
  sceneRegionBelow: number;
  // Except at the person's outline: there a sure pixel that the plate takes for background by a full
  // match or more (its own evidence and its region's: at most -matchWeight), with the background or
  // other such pixels on most sides (OUTLINE_NEIGHBOURS), takes the plate's alpha, peeled in from the
  // background up to `outlinePeel` pixels deep. The model's mask, upscaled from its grid, is sure a
  // pixel or two beyond the person, and its certainty kept that ring as a halo (decision 0112).
  outlinePeel: number;
  // What enters at the picture's edge (entering): a patch of at least this many grid cells, at least
  // `enteringMoved` of which moved within `enteringSeconds`: a patch that stopped (the scene shifted
  // once, a door that stays open) is not someone coming in.
  enteringPixels: number;
  enteringMoved: number;
  enteringSeconds: number;
  // Someone comes in bit by bit: a patch first seen entering larger than this share of the grid is the
  // scene changing at once (the camera nudged or zoomed), unless it continues last frame's entering,
  // or lies mostly (`leavingShare` of its cells) where last frame's person was: someone leaving.
  enteringFirstShare: number;
  leavingShare: number;
  // A pixel darker than its plate by a ratio in this range, with the same colour dimmed alike
  // (shadedChroma), may be a shadow: no evidence either way (the model decides), unless around it such
  // pixels follow the plate's texture (shadow-texture.ts): then `shadowWeight` logits towards the
  // background; or carry a texture of their own: then their difference, as any pixel's.
  shadowRatios: [number, number];
  shadowChroma: number;
  shadowTexture: ShadowTextureSettings;
  shadowWeight: number;
}

export const DEFAULT_PLATE: PlateSettings = {
  learnRate: 0.15,
  knownAfter: 3,
  everyRow: false,
  learnBelow: 0.1,
  faintSettledSeconds: 2,
  learnMargin: 2,
  reach: 6,
  matchBelow: 0.04,
  differFrom: 0.12,
  chromaWeight: 2,
  matchWeight: 3,
  differWeight: 5,
  regionWeight: 1.5,
  sureFrom: 0.9,
  sceneRegionBelow: -1.5,
  outlinePeel: 2,
  enteringPixels: 8,
  enteringMoved: 0.3,
  enteringSeconds: 0.3,
  enteringFirstShare: 0.015,
  leavingShare: 0.5,
  shadowRatios: [0.45, 0.92],
  shadowChroma: 0.03,
  shadowTexture: { reach: 3, correlationFrom: 0.4, textureFrom: 1, shareFrom: 0.15, ownTextureFrom: 3 },
  shadowWeight: 3,
};

// The picture the alpha is made at, planar 8-bit YUV: luma at the alpha's size, each chroma plane
// at full resolution (yuv444p, the model's frame) or half (yuv420p, the full-size side frame).
export interface PlatePicture {
  bytes: Uint8Array;
  chromaShift: 0 | 1;
}

// Where the model's mask shows its person.
const PERSON = 0.5;
// Where an 8-bit alpha shows the person.
const HALF = 128;

// Per grid cell, 1 where its picture moved within motionSeconds' `moved` (just now: someone entering)
// and `stirred` (of late: a faint answer that is not the scene), else 0 (StillObjectFilter.movedWithin).
export interface PlateMotion {
  moved: Uint8Array;
  stirred: Uint8Array;
}

// The model's answers are clamped here before their logit: an alpha of 0 or 255 stays movable.
const SURE = 0.02;
const LOGITS = Float64Array.from({ length: 256 }, (_, a) => {
  const p = Math.min(1 - SURE, Math.max(SURE, a / 255));
  return Math.log(p / (1 - p));
});
// Where a sure pixel's matching stops (sureFrom): alpha 134, foreground at 8 bits.
const SURE_FLOOR = 0.1;
// The alpha of a summed logit, looked up in steps of 1/32 over the range the sums can take: an
// exponential on every pixel near the person costs more than the rest of the fusion.
const STEPS = 32;
const LOGIT_RANGE = 10;
const ALPHAS = Uint8Array.from({ length: 2 * LOGIT_RANGE * STEPS + 1 }, (_, k) => Math.round(255 / (1 + Math.exp(-(k / STEPS - LOGIT_RANGE)))));

// Exposure ratios are read from GAIN_LOW to GAIN_HIGH in steps of 1 / GAIN_BINS_PER_UNIT, on cells
// whose plate is brighter than DARK (a ratio of near-black values is noise).
const GAIN_LOW = 0;
const GAIN_HIGH = 3;
const GAIN_BINS_PER_UNIT = 200;
const DARK = 40;
// Fewer known background cells than this give no exposure: a ratio of a few is noise.
const MIN_GAIN_CELLS = 50;

// A chroma sample between a neighbour within BLED_MATCH of its difference to the plate and one at
// BLED_SOURCE of it or more carries that neighbour's colour (bledChromaDifference).
const BLED_MATCH = 0.5;
const BLED_SOURCE = 1.5;

// A weighed pixel that failed the shadow test with at least this many of its eight neighbours passing
// it is weighed as they are (weighShadows): a pixel alone, a line one pixel wide and a 2x2 blob are
// taken; a line two pixels wide (a strand of hair, a finger's edge), upright or slanting, keeps its own
// evidence. It is marked SPECK, not SHADOW, so that it does not count as passing for the pixels after it.
const SPECK_NEIGHBOURS = 5;
// The marks of `shadowed`: a pixel that passed the shadow test, and a speck among such pixels; in
// apply, a sure pixel the plate takes for background (peelOutline).
const SHADOW = 1;
const SPECK = 2;
const MATCHED = 3;
// A matched pixel at the outline is peeled where at least this many of its eight neighbours are the
// background or matched too: a ring of them is, a lone pixel of the person that matches the wall by
// chance on a straight outline (three background neighbours across it) is not.
const OUTLINE_NEIGHBOURS = 5;

// What a plate has learned, carried to where a segment of a long video begins (decision 0100).
export interface PlateSnapshot {
  luma: Float32Array;
  chromaU: Float32Array;
  chromaV: Float32Array;
  seen: Uint8Array;
  referenceLuma: Float32Array;
  near: Uint8Array;
  previousEntering: Uint8Array;
  empty: boolean;
}

export class BackgroundPlate {
  private readonly luma: Float32Array;
  private readonly chromaU: Float32Array;
  private readonly chromaV: Float32Array;
  // Frames each pixel has shown the background (two for each it learned from, see weigh), capped at 255.
  private readonly seen: Uint8Array;
  // Grid planes: the model's person grown by `reach`, and where the background may not be learned
  // (the person, what enters or moves, grown by `learnMargin`).
  private readonly near: Uint8Array;
  private readonly unlearnable: Uint8Array;
  private readonly scratch: Uint8Array;
  // This frame's evidence per pixel, the pixels weighed (in order; apply gathers some at the front and
  // keeps their plate's alpha in `evidence`), and per grid cell the evidence's sum and count, then its
  // mean over the cell and its neighbours.
  private readonly evidence: Float32Array;
  private readonly candidates: Int32Array;
  private readonly cellSums: Float64Array;
  private readonly cellCounts: Int32Array;
  private readonly rowSums: Float64Array;
  private readonly rowCounts: Int32Array;
  private readonly regional: Float32Array;
  // SHADOW for this frame's weighed pixels that may be a shadow (weigh; a byte a pixel, as the largest
  // picture has 9.4 million), SPECK for those among them that failed the test (weighShadows), and
  // what such pixels tell (ShadowTexture). Clear between passes; peelOutline marks MATCHED pixels.
  private readonly shadowed: Uint8Array;
  private readonly shadowTexture: ShadowTexture;
  // The grid rows and columns this frame's weighed pixels lie in (empty: bottom < top); the cell sums
  // outside its rows are 0.
  private readonly weighed = { top: 0, bottom: -1, left: 0, right: -1 };
  // Grid planes of what enters (entering): the cells that differ from the plate, their labels, the
  // walk's stack, a patch's cells, and each cell's centre pixel.
  private readonly differs: Uint8Array;
  private readonly labels: Uint8Array;
  private readonly stack: Int32Array;
  private readonly members: Int32Array;
  private readonly centres: Int32Array;
  // Each grid cell's centre pixel's chroma sample.
  private readonly centreChroma: Int32Array;
  // Last frame's entering cells, and its `near` (the person and what entered, grown).
  private readonly previousEntering: Uint8Array;
  private readonly previousNear: Uint8Array;
  // For each alpha column and row, its grid column and row, and whether it holds its grid cells' centres
  // (the alpha is never smaller than the grid, so each centre pixel is one cell's).
  private readonly gridX: Int32Array;
  private readonly gridY: Int32Array;
  private readonly centreColumns: Uint8Array;
  private readonly centreRows: Uint8Array;
  private readonly chromaWidth: number;
  private empty = true;
  // The number of the frame being fused, in the whole video: which rows learn (weigh) goes by it, so
  // a segment of a long video learns the rows one run would (decision 0100).
  private frame: number;
  // This frame's exposure against the plate's (exposureGain), and the histogram it is read from.
  private gain = 1;
  // Whether the frame fits the plate better shifted than in place (shifted).
  private readonly shiftSearch: ShiftSearch;
  private readonly shiftReference: ShiftReference;
  private mask: Float32Array = new Float32Array(0);
  private readonly ratioCounts = new Int32Array((GAIN_HIGH - GAIN_LOW) * GAIN_BINS_PER_UNIT + 1);

  constructor(
    private readonly size: PictureSize,
    private readonly grid: PictureSize,
    chromaShift: 0 | 1,
    private readonly settings: PlateSettings = DEFAULT_PLATE,
    firstFrame = 1,
  ) {
    this.frame = firstFrame - 1;
    const pixels = size.width * size.height;
    this.chromaWidth = (size.width + chromaShift) >> chromaShift;
    const chromaPixels = this.chromaWidth * ((size.height + chromaShift) >> chromaShift);
    this.luma = new Float32Array(pixels);
    this.chromaU = new Float32Array(chromaPixels);
    this.chromaV = new Float32Array(chromaPixels);
    this.seen = new Uint8Array(pixels);
    const gridPixels = grid.width * grid.height;
    this.near = new Uint8Array(gridPixels);
    this.unlearnable = new Uint8Array(gridPixels);
    this.scratch = new Uint8Array(gridPixels);
    this.evidence = new Float32Array(pixels);
    this.candidates = new Int32Array(pixels);
    this.cellSums = new Float64Array(gridPixels);
    this.cellCounts = new Int32Array(gridPixels);
    this.rowSums = new Float64Array(gridPixels);
    this.rowCounts = new Int32Array(gridPixels);
    this.regional = new Float32Array(gridPixels);
    this.shadowed = new Uint8Array(pixels);
    this.shadowTexture = new ShadowTexture(grid, pixels / gridPixels, settings.shadowTexture);
    this.differs = new Uint8Array(gridPixels);
    this.labels = new Uint8Array(gridPixels);
    this.stack = new Int32Array(gridPixels);
    this.members = new Int32Array(gridPixels);
    this.previousEntering = new Uint8Array(gridPixels);
    this.previousNear = new Uint8Array(gridPixels);
    this.centres = gridCentres(grid, size);
    this.centreChroma = this.centres.map((i) => (Math.floor(i / size.width) >> chromaShift) * this.chromaWidth + ((i % size.width) >> chromaShift));
    this.gridX = Int32Array.from({ length: size.width }, (_, x) => Math.min(grid.width - 1, Math.floor(((x + 0.5) * grid.width) / size.width)));
    this.shiftSearch = new ShiftSearch(grid, 2);
    this.shiftReference = {
      // The plate's luma at each grid cell's centre, kept as weigh learns it (the plate starts at 0).
      luma: new Float32Array(grid.width * grid.height).fill(lumaOf(0)),
      usable: (g) => this.mask[g] < settings.learnBelow && this.seen[this.centres[g]] >= settings.knownAfter,
    };
    this.gridY = Int32Array.from({ length: size.height }, (_, y) => Math.min(grid.height - 1, Math.floor(((y + 0.5) * grid.height) / size.height)));
    this.centreColumns = Uint8Array.from(this.gridX, (gx, x) => (this.centres[gx] % size.width === x ? 1 : 0));
    this.centreRows = Uint8Array.from(this.gridY, (gy, y) => (Math.floor(this.centres[gy * grid.width] / size.width) === y ? 1 : 0));
  }

  // A copy of what the plate has learned so far.
  snapshot(): PlateSnapshot {
    const { luma, chromaU, chromaV, seen, near, previousEntering, empty } = this;
    return { luma: luma.slice(), chromaU: chromaU.slice(), chromaV: chromaV.slice(), seen: seen.slice(), referenceLuma: this.shiftReference.luma.slice(), near: near.slice(), previousEntering: previousEntering.slice(), empty };
  }

  // Begins from what another plate of the same size had learned (snapshot). A plate of another size
  // (another picture, or refinement on in one run and off in the other) is refused, never half-set.
  restore(snapshot: PlateSnapshot): void {
    const sizes: [ArrayLike<number>, ArrayLike<number>][] = [
      [snapshot.luma, this.luma],
      [snapshot.chromaU, this.chromaU],
      [snapshot.chromaV, this.chromaV],
      [snapshot.seen, this.seen],
      [snapshot.referenceLuma, this.shiftReference.luma],
      [snapshot.near, this.near],
      [snapshot.previousEntering, this.previousEntering],
    ];
    if (sizes.some(([given, own]) => given.length !== own.length)) throw new RangeError('the plate to begin from was learned at another size');
    this.luma.set(snapshot.luma);
    this.chromaU.set(snapshot.chromaU);
    this.chromaV.set(snapshot.chromaV);
    this.seen.set(snapshot.seen);
    this.shiftReference.luma.set(snapshot.referenceLuma);
    this.near.set(snapshot.near);
    this.previousEntering.set(snapshot.previousEntering);
    this.empty = snapshot.empty;
  }

  // How recent a movement makes the grid cells of fuse's `motion` moved and stirred.
  get motionSeconds(): { moved: number; stirred: number } {
    return { moved: this.settings.enteringSeconds, stirred: this.settings.faintSettledSeconds };
  }

  // Fuses `alpha` (in place, at the plate's size) with the plate, then learns the background from
  // this frame. `mask`: the model's finished mask on the grid; `cameraStill`: false drops the plate.
  // `gridLuma`: the frame's luma on the grid (0..1); `motion`: the grid cells whose picture moved
  // within each of `motionSeconds`.
  fuse(alpha: Uint8Array, mask: Float32Array, picture: PlatePicture, cameraStill: boolean, gridLuma: Float32Array, motion: PlateMotion): void {
    this.frame++;
    if (!cameraStill || this.shifted(gridLuma, mask)) return this.forget();
    this.gain = this.exposureGain(picture, mask);
    // Last frame's person, and what entered with them (markGrid), for someone leaving (entering).
    this.previousNear.set(this.near);
    this.markNear(mask);
    this.markDifferences(picture);
    this.markGrid(mask, motion);
    const candidates = this.weigh(alpha, picture);
    this.weighShadows(candidates);
    this.gatherAround();
    this.apply(alpha, candidates);
    this.empty = false;
  }

  // Each pixel's evidence against its plate where the plate is known and the pixel may change (the
  // model shows something there, or it is near the person), summed per grid cell (a pixel that may be
  // a shadow in weighShadows, once its region is judged); learns the background where the model shows
  // none. Returns how many pixels were weighed (`candidates`).
  private weigh(alpha: Uint8Array, picture: PlatePicture): number {
    const { luma, chromaU, chromaV, seen, near, unlearnable, gridX, gridY, centreColumns, centreRows, chromaWidth, evidence, candidates, cellSums, cellCounts, gain, settings } = this;
    const gridPlate = this.shiftReference.luma;
    const { width, height } = this.size;
    const { bytes } = picture;
    const shift = picture.chromaShift;
    const pixels = width * height;
    const chromaRows = (height + shift) >> shift;
    const vPlane = pixels + chromaWidth * chromaRows;
    const planes: ChromaPlanes = { u: pixels, v: vPlane, plateU: chromaU, plateV: chromaV, width: chromaWidth, rows: chromaRows, shift, lumaWidth: width };
    const [darkest, lightest] = settings.shadowRatios;
    const slope = (settings.matchWeight + settings.differWeight) / (settings.differFrom - settings.matchBelow);
    // Each row learns every other frame (half the work on every background pixel), by as much as two
    // frames of learnRate would and counting as two frames seen.
    const rate = 1 - (1 - settings.learnRate) ** 2;
    const learningRows = (this.frame - 1) & 1;
    const box = this.weighed;
    const gridWidth = this.grid.width;
    if (box.bottom >= box.top) {
      cellSums.fill(0, box.top * gridWidth, (box.bottom + 1) * gridWidth);
      cellCounts.fill(0, box.top * gridWidth, (box.bottom + 1) * gridWidth);
    }
    box.top = this.grid.height;
    box.bottom = -1;
    box.left = gridWidth;
    box.right = -1;
    const { knownAfter, chromaWeight, matchBelow, matchWeight, differWeight, differFrom, shadowChroma, everyRow } = settings;
    const { shadowed, shadowTexture } = this;
    shadowTexture.clear();
    let count = 0;
    for (let y = 0, i = 0; y < height; y++) {
      const gridRow = gridY[y] * gridWidth;
      const rowStart = count;
      const chromaRow = (y >> shift) * chromaWidth;
      const learning = everyRow || (y & 1) === learningRows;
      const centreRow = centreRows[y] === 1;
      // The row that learns on the other frames (rows 2k and 2k + 1 pair up; they share a chroma row
      // in 4:2:0). Where one has learned a pixel and the other has not yet, the other is read from it:
      // a pixel known in every other row made a striped matte over what the plate was still learning.
      const pairOffset = everyRow ? 0 : (y & 1) === 0 ? (y + 1 < height ? width : 0) : -width;
      const pairChromaOffset = shift === 1 ? 0 : pairOffset;
      // A chroma sample shared by a 2x2 block is learned from its first pixel only: on even rows.
      const learnsChroma = (y & shift) === 0;
      for (let x = 0; x < width; x++, i++) {
        const gx = gridX[x];
        const g = gridRow + gx;
        const a = alpha[i];
        // Most of the picture is neither near the person nor shown by the model: only learned.
        if (a > 0 || near[g] === 1) {
          const own = seen[i] >= knownAfter;
          if (own || seen[i + pairOffset] >= knownAfter) {
            const c = chromaRow + (x >> shift);
            const yValue = bytes[i];
            const u = bytes[pixels + c];
            const v = bytes[vPlane + c];
            const p = own ? i : i + pairOffset;
            const pc = own ? c : c + pairChromaOffset;
            const plateY = 16 + gain * (luma[p] - 16);
            const lumaDifference = Math.abs(yValue - plateY) / 219;
            const ownChroma = Math.abs(u - chromaU[pc]) + Math.abs(v - chromaV[pc]);
            let chroma = (chromaWeight * ownChroma) / 224;
            // Only where the chroma decides the evidence: not where the luma alone differs clearly.
            if (lumaDifference < differFrom && lumaDifference + chroma > matchBelow) {
              chroma = (chromaWeight * bledChromaDifference(bytes, planes, seen, x >> shift, y >> shift, pc - c, ownChroma, knownAfter)) / 224;
            }
            const ratio = (yValue - 16) / (plateY - 16);
            const shadow = yValue < plateY && ratio >= darkest && ratio <= lightest && shadedChroma(u, v, chromaU[pc], chromaV[pc], ratio) * chromaWeight < shadowChroma;
            let weight = -matchWeight + (lumaDifference + chroma - matchBelow) * slope;
            if (weight < -matchWeight) weight = -matchWeight;
            else if (weight > differWeight) weight = differWeight;
            evidence[i] = weight;
            candidates[count++] = i;
            if (shadow) {
              shadowed[i] = SHADOW;
              shadowTexture.add(g, yValue, plateY);
            } else cellSums[g] += weight;
            cellCounts[g]++;
            if (gx < box.left) box.left = gx;
            if (gx > box.right) box.right = gx;
          }
        }
        if (learning && a === 0 && unlearnable[g] === 0) {
          const yValue = bytes[i];
          const seenBefore = seen[i];
          luma[i] = seenBefore === 0 ? yValue : luma[i] + rate * (yValue - luma[i]);
          if (centreRow && centreColumns[x] === 1) gridPlate[g] = lumaOf(luma[i]);
          if (learnsChroma && (x & shift) === 0) {
            const c = chromaRow + (x >> shift);
            const u = bytes[pixels + c];
            const v = bytes[vPlane + c];
            chromaU[c] = seenBefore === 0 ? u : chromaU[c] + rate * (u - chromaU[c]);
            chromaV[c] = seenBefore === 0 ? v : chromaV[c] + rate * (v - chromaV[c]);
          }
          seen[i] = seenBefore < 254 ? seenBefore + 2 : 255;
        }
      }
      if (count > rowStart) {
        if (box.top > gridY[y]) box.top = gridY[y];
        box.bottom = gridY[y];
      }
    }
    return count;
  }

  // The weighed pixels that may be a shadow, where around them such pixels follow the plate's texture:
  // `shadowWeight` towards the background instead of no evidence. So does a pixel that failed the
  // shadow test where at least SPECK_NEIGHBOURS of its eight neighbours passed it, unless its own
  // evidence is further towards the background already: grain or a chroma sample shared with the
  // person tips single pixels out of the test, and each came out as a speck of foreground in the
  // shadow, a different one every frame. Where the pixels that may be a shadow carry a texture of
  // their own, each weighs its difference to the plate as any other pixel (weigh keeps it in
  // `evidence`, out of the cell sums until now; decision 0113). Their marks are cleared on the way.
  private weighShadows(count: number): void {
    const { shadowed, shadowTexture, candidates, evidence, cellSums, gridX, gridY } = this;
    const { width, height } = this.size;
    const gridWidth = this.grid.width;
    const weight = this.settings.shadowWeight;
    // Every pixel weigh marked SHADOW was added to shadowTexture: none marked, none left out of the sums.
    if (!shadowTexture.holdsPixels) return;
    for (let k = 0; k < count; k++) {
      const i = candidates[k];
      if (shadowed[i] === 0 && isSpeck(shadowed, i, width, height)) shadowed[i] = SPECK;
    }
    for (let k = 0; k < count; k++) {
      const i = candidates[k];
      const mark = shadowed[i];
      if (mark === 0) continue;
      shadowed[i] = 0;
      const g = gridY[(i / width) | 0] * gridWidth + gridX[i % width];
      const verdict = shadowTexture.verdict(g);
      if (mark === SHADOW) {
        if (verdict === FOLLOWS) evidence[i] = -weight;
        else if (verdict === UNTOLD) evidence[i] = 0;
        cellSums[g] += evidence[i];
      } else if (verdict === FOLLOWS && evidence[i] > -weight) {
        cellSums[g] -= weight + evidence[i];
        evidence[i] = -weight;
      }
    }
  }

  // Each grid cell's regional evidence: the mean over the weighed pixels of it and its 8 neighbours.
  // A pixel alone can match its plate by chance (a grey shirt's fold on a grey wall); a whole region
  // that matches is the scene (a coat on a chair the person stands in front of).
  private gatherAround(): void {
    const { cellSums, cellCounts, rowSums, rowCounts, regional } = this;
    const { width, height } = this.grid;
    const { top, bottom, left, right } = this.weighed;
    // Only the weighed cells' regions are read (apply); the rows just outside them are all 0.
    if (bottom < top) return;
    // Each cell's row of three, then the columns of those: two passes instead of nine reads a cell.
    for (let y = Math.max(0, top - 1); y <= Math.min(height - 1, bottom + 1); y++) {
      const row = y * width;
      for (let x = left; x <= right; x++) {
        const g = row + x;
        let sum = cellSums[g];
        let count = cellCounts[g];
        if (x > 0) {
          sum += cellSums[g - 1];
          count += cellCounts[g - 1];
        }
        if (x < width - 1) {
          sum += cellSums[g + 1];
          count += cellCounts[g + 1];
        }
        rowSums[g] = sum;
        rowCounts[g] = count;
      }
    }
    for (let y = top; y <= bottom; y++) {
      for (let g = y * width + left; g <= y * width + right; g++) {
        let sum = rowSums[g];
        let count = rowCounts[g];
        if (y > 0) {
          sum += rowSums[g - width];
          count += rowCounts[g - width];
        }
        if (y < height - 1) {
          sum += rowSums[g + width];
          count += rowCounts[g + width];
        }
        regional[g] = count === 0 ? 0 : sum / count;
      }
    }
  }

  // The weighed pixels' alpha: the model's logit plus the pixel's and its region's evidence. Away from
  // the person a difference adds nothing: a moved chair, a flicker of light. A sure pixel keeps its
  // person unless its whole region matches the plate (sureFrom), or it lies at the outline (peelOutline).
  private apply(alpha: Uint8Array, count: number): void {
    const { evidence, candidates, regional, near, gridX, gridY, settings } = this;
    const { width } = this.size;
    const gridWidth = this.grid.width;
    const sure = Math.ceil(settings.sureFrom * 255);
    // The sure pixels the plate takes for background by a full match or more (own and region) are
    // gathered at the front of `candidates` (never ahead of the pixel being read), each with the
    // plate's alpha in `evidence`, for peelOutline.
    let matched = 0;
    for (let k = 0; k < count; k++) {
      const i = candidates[k];
      const g = gridY[(i / width) | 0] * gridWidth + gridX[i % width];
      let total = evidence[i] + settings.regionWeight * regional[g];
      if (total > 0 && near[g] === 0) total = 0;
      let logit = LOGITS[alpha[i]] + total;
      if (logit < -LOGIT_RANGE) logit = -LOGIT_RANGE;
      else if (logit > LOGIT_RANGE) logit = LOGIT_RANGE;
      if (alpha[i] >= sure && regional[g] > settings.sceneRegionBelow) {
        if (logit < SURE_FLOOR) logit = SURE_FLOOR;
        if (total <= -settings.matchWeight) {
          candidates[matched++] = i;
          evidence[i] = ALPHAS[((Math.max(-LOGIT_RANGE, total) + LOGIT_RANGE) * STEPS + 0.5) | 0];
        }
      }
      alpha[i] = ALPHAS[((logit + LOGIT_RANGE) * STEPS + 0.5) | 0];
    }
    this.peelOutline(alpha, matched);
  }

  // The first `matched` of `candidates`, sure pixels the plate takes for background (apply): those at
  // the outline take the plate's alpha (`evidence`), one ring a pass from the background in,
  // `outlinePeel` passes.
  private peelOutline(alpha: Uint8Array, matched: number): void {
    const { candidates, evidence, shadowed } = this;
    const { width, height } = this.size;
    for (let k = 0; k < matched; k++) shadowed[candidates[k]] = MATCHED;
    for (let pass = 0; pass < this.settings.outlinePeel && matched > 0; pass++) {
      // Judged on the alpha as the pass found it, then peeled: one ring a pass.
      for (let k = 0; k < matched; k++) {
        const i = candidates[k];
        if (atOutline(alpha, shadowed, i, width, height)) evidence[i] = -1 - evidence[i];
      }
      let kept = 0;
      for (let k = 0; k < matched; k++) {
        const i = candidates[k];
        if (evidence[i] < 0) {
          alpha[i] = -1 - evidence[i];
          shadowed[i] = 0;
        } else candidates[kept++] = i;
      }
      matched = kept;
    }
    for (let k = 0; k < matched; k++) shadowed[candidates[k]] = 0;
  }

  // Whether the frame fits the plate better shifted than in place: a camera that drifted (a slow
  // pan, a shake) too little from one frame to the next to count as moving. Judged on the grid's
  // background cells whose plate is known.
  private shifted(gridLuma: Float32Array, mask: Float32Array): boolean {
    this.mask = mask;
    return this.shiftSearch.judge(gridLuma, this.shiftReference) === 'moved';
  }

  // The camera's exposure against the plate's: the median ratio of the frame's luma to the plate's
  // over the known background cells of every other grid row and column (1 where there are too few). A
  // change of exposure or of the room's light brightens or darkens every pixel alike; compared as it is,
  // the scene would differ from its plate everywhere at once. A quarter of the cells tells the same
  // median for a quarter of the reads.
  private exposureGain(picture: PlatePicture, mask: Float32Array): number {
    const { centres, seen, luma, ratioCounts, settings } = this;
    const { width, height } = this.grid;
    ratioCounts.fill(0);
    let cells = 0;
    for (let y = 0; y < height; y += 2) {
      for (let g = y * width; g < (y + 1) * width; g += 2) {
        const i = centres[g];
        if (mask[g] >= settings.learnBelow || seen[i] < settings.knownAfter || luma[i] < DARK) continue;
        const bin = Math.round(((picture.bytes[i] - 16) / (luma[i] - 16) - GAIN_LOW) * GAIN_BINS_PER_UNIT);
        ratioCounts[bin < 0 ? 0 : bin >= ratioCounts.length ? ratioCounts.length - 1 : bin]++;
        cells++;
      }
    }
    if (cells < MIN_GAIN_CELLS) return 1;
    let below = 0;
    for (let bin = 0; bin < ratioCounts.length; bin++) {
      below += ratioCounts[bin];
      if (below * 2 >= cells) return GAIN_LOW + bin / GAIN_BINS_PER_UNIT;
    }
    return 1;
  }

  private forget(): void {
    if (this.empty) return;
    this.seen.fill(0);
    this.previousEntering.fill(0);
    this.near.fill(0);
    this.empty = true;
  }

  // `near`: the model's person grown by `reach`.
  private markNear(mask: Float32Array): void {
    const { near, scratch, settings } = this;
    for (let i = 0; i < mask.length; i++) near[i] = mask[i] >= PERSON ? 1 : 0;
    grow(near, scratch, this.grid.width, this.grid.height, settings.reach);
  }

  // What enters (entering) counts as the person too: `near` grows by it, grown by `reach`.
  private markGrid(mask: Float32Array, { moved, stirred }: PlateMotion): void {
    const { near, unlearnable, scratch, settings } = this;
    const { width, height } = this.grid;
    const entering = this.entering(moved);
    // Most frames, nothing enters.
    if (entering.includes(1)) {
      unlearnable.set(entering);
      grow(unlearnable, scratch, width, height, settings.reach);
      for (let i = 0; i < mask.length; i++) near[i] |= unlearnable[i];
    }
    // Nor is what moves learned: someone the model missed, walking.
    for (let i = 0; i < mask.length; i++) {
      const answered = mask[i] >= PERSON || (mask[i] >= settings.learnBelow && stirred[i] === 1);
      unlearnable[i] = answered || entering[i] === 1 || moved[i] === 1 ? 1 : 0;
    }
    grow(unlearnable, scratch, width, height, settings.learnMargin);
  }

  // The grid cells whose picture differs clearly from a known plate (sampled at each cell's centre),
  // into `differs`.
  private markDifferences(picture: PlatePicture): void {
    const { differs, centres, centreChroma, seen, luma, chromaU, chromaV, chromaWidth, gain, settings } = this;
    const { bytes } = picture;
    const shift = picture.chromaShift;
    const pixels = this.size.width * this.size.height;
    const vPlane = pixels + chromaWidth * ((this.size.height + shift) >> shift);
    for (let g = 0; g < differs.length; g++) {
      const i = centres[g];
      differs[g] = 0;
      if (seen[i] < settings.knownAfter) continue;
      const c = centreChroma[g];
      const difference = Math.abs(bytes[i] - 16 - gain * (luma[i] - 16)) / 219 + (Math.abs(bytes[pixels + c] - chromaU[c]) + Math.abs(bytes[vPlane + c] - chromaV[c])) / 224;
      if (difference >= settings.differFrom) differs[g] = 1;
    }
  }

  // Grid cells of what comes in or goes out at the picture's edge: patches that differ clearly from
  // the plate (markDifferences), touch the edge, and mostly moved just now (`moved`, 1 per grid cell).
  // Someone half out of the picture is too cut for the model to see; their difference to the plate
  // shows them whole, and nothing static is taken for them.
  private entering(moved: Uint8Array): Uint8Array {
    const { differs, labels, stack, members, previousNear, settings } = this;
    const previous = this.previousEntering;
    const { width, height } = this.grid;
    const label = (g: number): number => {
      labels[g] = 1;
      return g;
    };
    labels.fill(0);
    for (let seed = 0; seed < differs.length; seed++) {
      if (differs[seed] === 0 || labels[seed] !== 0) continue;
      let top = 0;
      let count = 0;
      let touches = false;
      let moving = 0;
      labels[seed] = 1;
      stack[top++] = seed;
      while (top > 0) {
        const g = stack[--top];
        members[count++] = g;
        const x = g % width;
        const y = (g / width) | 0;
        if (x === 0 || y === 0 || x === width - 1 || y === height - 1) touches = true;
        moving += moved[g];
        if (x > 0 && differs[g - 1] === 1 && labels[g - 1] === 0) stack[top++] = label(g - 1);
        if (x < width - 1 && differs[g + 1] === 1 && labels[g + 1] === 0) stack[top++] = label(g + 1);
        if (y > 0 && differs[g - width] === 1 && labels[g - width] === 0) stack[top++] = label(g - width);
        if (y < height - 1 && differs[g + width] === 1 && labels[g + width] === 0) stack[top++] = label(g + width);
      }
      let continues = false;
      let wasPerson = 0;
      for (let k = 0; k < count; k++) {
        if (previous[members[k]] === 1) continues = true;
        wasPerson += previousNear[members[k]];
      }
      // Someone leaving: the patch is mostly where last frame's person was.
      const leaves = wasPerson >= settings.leavingShare * count;
      // Once in, someone is followed while they move, edge or not, until the model sees them.
      const follows = continues || leaves;
      const enters = count >= settings.enteringPixels && moving >= settings.enteringMoved * count && (follows || (touches && count <= settings.enteringFirstShare * differs.length));
      // 2: a patch that enters; 1 (labelled) otherwise.
      if (enters) for (let k = 0; k < count; k++) labels[members[k]] = 2;
    }
    for (let g = 0; g < differs.length; g++) differs[g] = labels[g] === 2 ? 1 : 0;
    previous.set(differs);
    return differs;
  }
}

// Grows the set pixels of `plane` (0 or 1) by `radius` pixels, a square each way (rows, then
// columns), using `scratch` of the same size. Only the box around the set pixels, grown by `radius`,
// is walked: outside it nothing is set before or after, and a person covers a small part of the grid.
function grow(plane: Uint8Array, scratch: Uint8Array, width: number, height: number, radius: number): void {
  let top = height;
  let bottom = -1;
  let left = width;
  let right = -1;
  for (let first = plane.indexOf(1); first >= 0; ) {
    const y = (first / width) | 0;
    const rowEnd = (y + 1) * width;
    if (top === height) top = y;
    bottom = y;
    if (first - y * width < left) left = first - y * width;
    const last = plane.lastIndexOf(1, rowEnd - 1) - y * width;
    if (last > right) right = last;
    first = rowEnd < plane.length ? plane.indexOf(1, rowEnd) : -1;
  }
  if (bottom < 0) return;
  const x0 = Math.max(0, left - radius);
  const x1 = Math.min(width - 1, right + radius);
  for (let y = top; y <= bottom; y++) {
    const row = y * width;
    let lastSet = -Infinity;
    for (let x = x0; x <= x1; x++) {
      if (plane[row + x] === 1) lastSet = x;
      scratch[row + x] = x - lastSet <= radius ? 1 : 0;
    }
    lastSet = Infinity;
    for (let x = x1; x >= x0; x--) {
      if (plane[row + x] === 1) lastSet = x;
      if (lastSet - x <= radius) scratch[row + x] = 1;
    }
  }
  const y0 = Math.max(0, top - radius);
  const y1 = Math.min(height - 1, bottom + radius);
  for (let x = x0; x <= x1; x++) {
    let lastSet = -Infinity;
    for (let y = y0; y <= y1; y++) {
      if (y >= top && y <= bottom && scratch[y * width + x] === 1) lastSet = y;
      plane[y * width + x] = y - lastSet <= radius ? 1 : 0;
    }
    lastSet = Infinity;
    for (let y = y1; y >= y0; y--) {
      if (y >= top && y <= bottom && scratch[y * width + x] === 1) lastSet = y;
      if (lastSet - y <= radius) plane[y * width + x] = 1;
    }
  }
}

// How far a pixel's colour is from its plate's dimmed by `ratio` (0..1, as weigh's chroma): less light
// takes a colour towards grey as much as it darkens it, so a shadow on a tinted wall is as much
// nearer grey as it is darker, and differs from the lit wall's chroma by that.
function shadedChroma(u: number, v: number, plateU: number, plateV: number, ratio: number): number {
  return (Math.abs(u - 128 - ratio * (plateU - 128)) + Math.abs(v - 128 - ratio * (plateV - 128))) / 224;
}

// A pixel's chroma difference to its plate (|du| + |dv|, in levels). A chroma sample is shared by 2x2
// pixels (4:2:0), and an encoder smears it further: the background just beside a person takes some of
// their colour, and counted as it is, it kept a fringe around everyone (at CRF 30 a band a few pixels
// wide, sweeping over the background as they walk: most of the flicker). Such a sample sits between a
// neighbour that matches the plate and one that differs more: there the difference is the least of
// them. A colour that differs on its own (skin before a beige wall) has no matching neighbour inside
// it, and keeps its own difference.
function bledChromaDifference(bytes: Uint8Array, planes: ChromaPlanes, seen: Uint8Array, column: number, row: number, plateOffset: number, own: number, knownAfter: number): number {
  const { width, shift } = planes;
  const c = row * width + column;
  // Where each sample's plate was learned: the first pixel of its block.
  const learnedAt = (row << shift) * planes.lumaWidth + (column << shift) + plateOffset;
  const across = 1 << shift;
  const down = planes.lumaWidth << shift;
  // A neighbour outside the picture, or not learned yet, tells nothing: it counts as the sample itself.
  const left = column > 0 && seen[learnedAt - across] >= knownAfter ? chromaDifference(bytes, planes, c - 1, plateOffset) : own;
  const right = column < width - 1 && seen[learnedAt + across] >= knownAfter ? chromaDifference(bytes, planes, c + 1, plateOffset) : own;
  const above = row > 0 && seen[learnedAt - down] >= knownAfter ? chromaDifference(bytes, planes, c - width, plateOffset) : own;
  const below = row < planes.rows - 1 && seen[learnedAt + down] >= knownAfter ? chromaDifference(bytes, planes, c + width, plateOffset) : own;
  const least = Math.min(left, right, above, below);
  return least <= BLED_MATCH * own && Math.max(left, right, above, below) >= BLED_SOURCE * own ? least : own;
}

// Chroma sample n's difference to its plate (`plateOffset`: 0 in 4:2:0, the pair row's offset where
// chroma is full size, as weigh reads it).
function chromaDifference(bytes: Uint8Array, planes: ChromaPlanes, n: number, plateOffset: number): number {
  return Math.abs(bytes[planes.u + n] - planes.plateU[n + plateOffset]) + Math.abs(bytes[planes.v + n] - planes.plateV[n + plateOffset]);
}

// Where the frame's two chroma planes start in its bytes, the plate's, and their size.
interface ChromaPlanes {
  u: number;
  v: number;
  plateU: Float32Array;
  plateV: Float32Array;
  width: number;
  rows: number;
  // log2 of the luma pixels per chroma sample along each side, and the luma's width.
  shift: number;
  lumaWidth: number;
}

// Whether at least SPECK_NEIGHBOURS of pixel i's eight neighbours passed the shadow test (marked SHADOW) this
// frame; it stops at the first miss too many, as most pixels near a person have no such neighbour.
function isSpeck(shadowed: Uint8Array, i: number, width: number, height: number): boolean {
  const x = i % width;
  const y = (i - x) / width;
  let missed = 0;
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if (dx === 0 && dy === 0) continue;
      const inside = x + dx >= 0 && x + dx < width && y + dy >= 0 && y + dy < height;
      if ((!inside || shadowed[i + dy * width + dx] !== SHADOW) && ++missed > 8 - SPECK_NEIGHBOURS) return false;
    }
  }
  return true;
}

// Whether a matched pixel touches the background (one of its four neighbours inside the picture) and
// at least OUTLINE_NEIGHBOURS of its eight are the background or matched: the picture's own edge is
// not the background, so a person leaving by it is not peeled there.
function atOutline(alpha: Uint8Array, shadowed: Uint8Array, i: number, width: number, height: number): boolean {
  const x = i % width;
  const y = (i / width) | 0;
  const touches = (x > 0 && alpha[i - 1] < HALF) || (x < width - 1 && alpha[i + 1] < HALF) || (y > 0 && alpha[i - width] < HALF) || (y < height - 1 && alpha[i + width] < HALF);
  if (!touches) return false;
  let around = 0;
  for (let dy = -1; dy <= 1; dy++) {
    if (y + dy < 0 || y + dy >= height) continue;
    for (let dx = -1; dx <= 1; dx++) {
      if ((dx === 0 && dy === 0) || x + dx < 0 || x + dx >= width) continue;
      const j = i + dy * width + dx;
      if (alpha[j] < HALF || shadowed[j] === MATCHED) around++;
    }
  }
  return around >= OUTLINE_NEIGHBOURS;
}
