import { BackgroundPlate, type PlateMotion, type PlatePicture, type PlateSettings, type PlateSnapshot } from './background-plate';
import { DEFAULT_WIDENING, touchedSides, widenedRegion, type WideningSettings } from './crop-widening';
import { DropoutHold, type DropoutHoldSettings } from './dropout-hold';
import { halveSideFrame } from './halved-frame';
import { ModelInput, writeLumaChange, type YuvMatrix } from './model-input';
import { MatteBuilder, type MatteSettings } from './matte-builder';
import { MatteQualityMeter, type MatteQuality } from './matte-quality';
import type { Segmenter } from './matting-model';
import { cropBytes, pasteRegion, RegionSampler, type PictureSize } from './region-crop';
import { RegionTracker, type Box, type Region, type TrackingSettings } from './region-tracker';
import { StillObjectFilter, type StillObjectSettings } from './still-object-filter';
import { TemporalSmoother, type SmoothingSettings } from './temporal-smoother';

export interface FrameMatterSettings {
  width: number;
  height: number;
  matrix: YuvMatrix;
  matte: MatteSettings;
  smoothing: SmoothingSettings;
  // Cropping to the person (decision 0041), from the decoder's side frame: the whole frame as yuv420p at
  // `sideSize`; a crop that cuts its person is widened (DEFAULT_WIDENING unless given). Null: the
  // model always sees the whole frame. Tiles and crops are run with `cropSegmenter` (decision 0070;
  // the frame's own segmenter unless given), a crop around what is wider than tall with the frame's.
  tracking: { settings: TrackingSettings; sideSize: PictureSize; widening?: WideningSettings; cropSegmenter?: Segmenter } | null;
  // A person the model loses for a moment held from the last frame (dropout-hold.ts), at the video's
  // frame rate. Null: each frame's mask stands.
  hold: { settings: DropoutHoldSettings; fps: number } | null;
  // Still, unsure patches taken out of the matte on a still camera (still-object-filter.ts), at the
  // video's frame rate. Null: the model's mask stands.
  stillObjects: { settings: StillObjectSettings; fps: number } | null;
  // The alpha fused with a plate of the background while the camera is still (background-plate.ts);
  // only with stillObjects, which tells whether it is. Null: the model's alpha stands.
  plate: PlateSettings | null;
  // Frames started and not yet finished, at most (see runFramePipeline).
  depth: number;
  // The number in the whole video of the first frame given, from 1 (a segment's: decision 0100), so
  // the background plate learns, and the tracker checks, on the frames they would in one run.
  firstFrame?: number;
  // What the plate had learned before the first frame given (a segment's: decision 0100).
  plateSeed?: PlateSnapshot;
  // The first frames given are a segment's warm-up, not delivered: the quality figures leave them out.
  warmupFrames?: number;
}

// A frame whose model run is under way.
export interface PendingMatte {
  luma: Float32Array;
  fullLuma: Uint8Array | undefined;
  // The picture at the alpha's size, for the background plate.
  picture: PlatePicture;
  mask: Promise<Float32Array>;
}

interface Slot {
  // The model's frame when it is made from the side frame (start() without one), made on first use.
  small?: Uint8Array;
  tensor: Float32Array;
  luma: Float32Array;
  // With tracking, the frame before's luma as it was when this frame started: the tracker's turn may
  // come after that frame's slot has taken another frame.
  previousLuma: Float32Array;
  // A crop as a crop model's input (its size, chroma at half resolution); for each crop view, each
  // region's tensor (made when first needed: most videos have one person, seen one way); and the
  // whole-grid mask the crops' masks are pasted onto.
  crop: Uint8Array;
  cropTensors: [Float32Array[], Float32Array[]];
  pasted: Float32Array;
}

// A model variant that sees crops, with what cuts a crop from the side frame at its size and turns it
// into its input; `tensors`: which of a slot's tensor sets it fills.
interface CropView {
  segmenter: Segmenter;
  sampler: RegionSampler;
  input: ModelInput;
  tensors: 0 | 1;
}

// One video's frames, in order: each frame, as the decoder gives it at the model's size (and its
// side frame: the crop source, whose Y plane is the full-size luma when refining), becomes its
// 8-bit alpha frame. Work is split so the model runs on frame n+1 (on its own thread) while this
// thread finishes frame n: start(n+1), then finish(n). Holds the state that ties frames together
// (the smoother's and the tracker's), so frames must be finished in order.
export class FrameMatter {
  private readonly input: ModelInput;
  private readonly smoother: TemporalSmoother;
  private readonly builder: MatteBuilder;
  // With tracking: where the model looks next and how; the crop views: `upright` for tiles and a
  // region around someone taller than wide, `wide` for a region around what is wider than tall
  // (decision 0070).
  private readonly tracking: {
    tracker: RegionTracker;
    settings: TrackingSettings;
    widening: WideningSettings;
    upright: CropView;
    wide: CropView;
  } | null;
  private readonly hold: DropoutHold | null;
  private readonly stillObjects: StillObjectFilter | null;
  private readonly plate: BackgroundPlate | null;
  // The delivered mattes' figures for the quality report (decision 0096).
  private readonly meter: MatteQualityMeter;
  // The frame (by start order) whose movement last brought a whole-frame check, or a closer look at
  // what moved; and the plane of what moved, made on first use.
  private lastMotionCheck = -Infinity;
  private moving: Float32Array | null = null;
  // The grid cells that moved of late, for the background plate; made on first use.
  private plateMotion: PlateMotion | null = null;
  // Whether the still-object filter found the camera still at the last frame.
  private cameraStill = false;
  // Whether the plate was carried from before the first frame and the camera has not moved since.
  private plateCarried = false;
  // One set of model inputs per frame in flight: they are read by model runs while others are filled.
  private readonly slots: Slot[];
  private nextSlot = 0;
  // The last tile search, kept once it has ended, with the number of the frame that made it, the
  // fresh frames (cuts) started up to it (see lookCloser) and the people it found.
  private search: { frame: number; cuts: number; people: Promise<Box[]> } | null = null;
  private cuts = 0;
  // The tracker's turns: every step that reads or changes what it holds runs here, in the order the
  // frames start and finish, so that it never depends on when the model answers; then every run of
  // the same frames gives the same matte (decision 0100). A closer look's turn lasts until its model
  // runs answer; a tracked frame's, only while it plans.
  private trackerTurn: Promise<unknown> = Promise.resolve();
  // A failure of the tracker outside a frame's own turn (observing a finished frame): the next frame
  // fails with it.
  private trackerFailure: { error: unknown } | null = null;

  constructor(
    private readonly segmenter: Segmenter,
    private readonly settings: FrameMatterSettings,
  ) {
    const { spec } = segmenter;
    const cropSegmenter = settings.tracking?.cropSegmenter ?? segmenter;
    const pixels = spec.width * spec.height;
    this.input = new ModelInput(spec.width, spec.height, settings.matrix);
    this.smoother = new TemporalSmoother(spec.width, spec.height, settings.smoothing);
    this.builder = new MatteBuilder(spec.width, spec.height, settings.width, settings.height, settings.matte);
    const view = (viewSegmenter: Segmenter, tensors: 0 | 1, sideSize: PictureSize): CropView => ({
      segmenter: viewSegmenter,
      sampler: new RegionSampler(sideSize, spec, viewSegmenter.spec),
      input: new ModelInput(viewSegmenter.spec.width, viewSegmenter.spec.height, settings.matrix),
      tensors,
    });
    this.tracking = settings.tracking
      ? {
          tracker: new RegionTracker(spec.width, spec.height, settings.tracking.settings, settings.firstFrame),
          settings: settings.tracking.settings,
          widening: settings.tracking.widening ?? DEFAULT_WIDENING,
          upright: view(cropSegmenter, 0, settings.tracking.sideSize),
          wide: view(segmenter, 1, settings.tracking.sideSize),
        }
      : null;
    this.hold = settings.hold ? new DropoutHold(pixels, settings.hold.fps, settings.hold.settings) : null;
    this.stillObjects = settings.stillObjects ? new StillObjectFilter(spec.width, spec.height, settings.stillObjects.fps, settings.stillObjects.settings) : null;
    // At the alpha's size: the frame's with refinement (the side frame, yuv420p), else the model's.
    this.plate =
      settings.stillObjects && settings.plate ? new BackgroundPlate({ width: this.builder.width, height: this.builder.height }, spec, settings.matte.refine ? 1 : 0, settings.plate, settings.firstFrame) : null;
    if (settings.plateSeed && this.plate) {
      this.plate.restore(settings.plateSeed);
      this.plateCarried = true;
    }
    this.meter = new MatteQualityMeter(spec, { width: this.builder.width, height: this.builder.height }, settings.warmupFrames);
    const cropSize = settings.tracking ? Math.max(cropBytes(spec), cropBytes(cropSegmenter.spec)) : 0;
    this.slots = Array.from({ length: settings.depth }, () => ({
      tensor: new Float32Array(pixels * 3),
      luma: new Float32Array(pixels),
      previousLuma: new Float32Array(settings.tracking ? pixels : 0),
      crop: new Uint8Array(cropSize),
      cropTensors: [[], []],
      pasted: new Float32Array(settings.tracking ? pixels : 0),
    }));
  }

  // `given`: the frame at the model's size (yuv444p), or undefined to make it from `side`, a crop
  // source exactly twice that size (halved-frame.ts).
  start(given: Uint8Array | undefined, side: Uint8Array | undefined): PendingMatte {
    const previous = this.slots[(this.nextSlot + this.slots.length - 1) % this.slots.length];
    const slot = this.slots[this.nextSlot];
    this.nextSlot = (this.nextSlot + 1) % this.slots.length;
    const small = given ?? halveSideFrame(side as Uint8Array, this.segmenter.spec, (slot.small ??= new Uint8Array(this.input.width * this.input.height * 3)));
    const fullLuma = this.settings.matte.refine && side ? side.subarray(0, this.settings.width * this.settings.height) : undefined;
    const mask = this.tracking && side ? this.segmentTracked(small, side, slot, previous.luma) : this.segmentWhole(small, slot.tensor, slot.luma);
    // Awaited by finish(); until then a failure must not count as unhandled.
    mask.catch(() => undefined);
    const picture: PlatePicture = this.settings.matte.refine && side ? { bytes: side, chromaShift: 1 } : { bytes: small, chromaShift: 0 };
    return { luma: slot.luma, fullLuma, picture, mask };
  }

  async finish(pending: PendingMatte): Promise<Uint8Array> {
    const mask = flushTiny(await pending.mask);
    this.smoother.smooth(mask, pending.luma);
    // The camera as the last frame left it: this frame's verdict needs the mended mask.
    this.hold?.hold(mask, pending.luma, this.plate !== null && this.cameraStill);
    // Before the tracker sees it: a table is not followed as a person.
    const cameraStill = (this.cameraStill = this.stillObjects?.filter(mask, pending.luma) ?? false);
    if (this.tracking) {
      const { tracker } = this.tracking;
      const seen = Float32Array.from(mask);
      this.inTrackerTurn(() => tracker.observe(seen)).catch((error: unknown) => void (this.trackerFailure ??= { error }));
    }
    const alpha = this.builder.build(mask, pending.luma, pending.fullLuma);
    if (this.plate && this.stillObjects) {
      const motion = (this.plateMotion ??= { moved: new Uint8Array(mask.length), stirred: new Uint8Array(mask.length) });
      const seconds = this.plate.motionSeconds;
      this.stillObjects.movedWithin(seconds.moved, motion.moved);
      this.stillObjects.movedWithin(seconds.stirred, motion.stirred);
      // A carried plate (a segment's) stands through the opening frames, until the camera is seen moving.
      this.plateCarried &&= this.stillObjects.stillSinceFirstFrame;
      this.plate.fuse(alpha, mask, pending.picture, cameraStill || this.plateCarried, pending.luma, motion);
    }
    this.meter.observe(alpha, pending.luma);
    return alpha;
  }

  // What the plate has learned from the frames finished so far; null without a plate.
  plateSnapshot(): PlateSnapshot | null {
    return this.plate?.snapshot() ?? null;
  }

  // The figures of the mattes finished so far.
  get quality(): MatteQuality {
    return this.meter.figures;
  }

  private segmentTracked(small: Uint8Array, side: Uint8Array, slot: Slot, previousLuma: Float32Array): Promise<Float32Array> {
    const { tracker } = this.tracking as NonNullable<FrameMatter['tracking']>;
    // The same test the smoother makes: a cut's person may be anywhere. The first frame's previous
    // slot is still empty, and it has no region to lose.
    const cut = writeLumaChange(small, slot.luma, previousLuma) >= this.settings.smoothing.cutFrom;
    slot.previousLuma.set(previousLuma);
    const before = slot.previousLuma;
    // The mask goes out in an object: a promise in a promise would be waited for within the turn.
    const planned = this.inTrackerTurn(async (): Promise<{ mask: Promise<Float32Array> }> => {
      if (this.trackerFailure) throw this.trackerFailure.error;
      const { regions, check, fresh, frame } = tracker.next(cut);
      if (fresh) this.cuts++;
      if (regions.length > 0) return { mask: this.segmentRegions(small, side, slot, regions, check || this.movedOutside(regions, slot.luma, before, frame)) };
      const motion = fresh ? null : this.motionLook(slot.luma, before, frame);
      const { regions: closer, whole } = await this.lookCloser(small, side, slot, { fresh, frame, cuts: this.cuts, motion });
      return { mask: closer.length > 0 ? this.segmentRegions(small, side, slot, closer, false, whole) : Promise.resolve(whole) };
    });
    return planned.then(({ mask }) => mask);
  }

  // `step` after every earlier turn; a failed step does not stop the turns after it.
  private inTrackerTurn<T>(step: () => Promise<T> | T): Promise<T> {
    const turn = this.trackerTurn.then(step);
    this.trackerTurn = turn.catch(() => undefined);
    return turn;
  }

  // Whether the picture moved outside `regions` since the last frame (someone entering where no crop
  // looks), and a whole-frame check for it is not too soon after the last.
  private movedOutside(regions: Region[], luma: Float32Array, previousLuma: Float32Array, frame: number): boolean {
    const { settings } = this.tracking as NonNullable<FrameMatter['tracking']>;
    if (frame - this.lastMotionCheck < settings.motionCheckEvery) return false;
    if (movingPixelsOutside(regions, this.movingPlane(luma, previousLuma), this.segmenter.spec.width) < settings.motionPixels) return false;
    this.lastMotionCheck = frame;
    return true;
  }

  // `luma`: null where segmentTracked has written it already.
  private segmentWhole(small: Uint8Array, tensor: Float32Array, luma: Float32Array | null): Promise<Float32Array> {
    this.input.write(small, this.segmenter.spec, tensor, luma, 'full');
    return this.segmenter.segment(tensor);
  }

  // Where the picture moved since the last frame, the region to look at closer if the whole frame
  // shows nobody (RegionTracker.motionRegion), at most every motionCheckEvery frames. Made before
  // the model runs: the last frame's luma is not kept that long.
  private motionLook(luma: Float32Array, previousLuma: Float32Array, frame: number): Region | null {
    const { tracker, settings } = this.tracking as NonNullable<FrameMatter['tracking']>;
    if (frame - this.lastMotionCheck < settings.motionCheckEvery) return null;
    return tracker.motionRegion(this.movingPlane(luma, previousLuma));
  }

  // 1 for each grid pixel whose luma changed by motionFrom or more since the last frame, else 0.
  private movingPlane(luma: Float32Array, previousLuma: Float32Array): Float32Array {
    const { motionFrom } = (this.tracking as NonNullable<FrameMatter['tracking']>).settings;
    const moving = (this.moving ??= new Float32Array(luma.length));
    for (let i = 0; i < luma.length; i++) {
      const change = luma[i] - previousLuma[i];
      moving[i] = change >= motionFrom || change <= -motionFrom ? 1 : 0;
    }
    return moving;
  }

  // A whole frame while tracking (the first, a cut, the person lost): where the model finds people
  // small, it looks again at crops around them, so the frames before the tracker catches up are
  // not the weak ones. Where it finds nobody, or on a fresh frame whoever it finds, a search in
  // tiles may find more (region-tracker.ts); where no search is due, a look at what moved (`motion`,
  // see motionLook). `frame`: its number by start order; `cuts`: the fresh frames started up to it.
  // Gives the regions to look at closer (none: the whole frame's mask stands) once the tracker knows
  // what this frame found.
  private async lookCloser(
    small: Uint8Array,
    side: Uint8Array,
    slot: Slot,
    { fresh, frame, cuts, motion }: { fresh: boolean; frame: number; cuts: number; motion: Region | null },
  ): Promise<{ regions: Region[]; whole: Float32Array }> {
    const { tracker } = this.tracking as NonNullable<FrameMatter['tracking']>;
    const whole = await this.segmentWhole(small, slot.tensor, null);
    // A frame started while an earlier frame that searched was still in flight (the pipeline's depth)
    // also looks where that search found people. Not across a cut: after one, what came before tells
    // nothing.
    const { search } = this;
    const earlierSearch = !fresh && search && search.cuts === cuts && search.frame < frame && frame - search.frame < this.settings.depth ? search.people : null;
    const looks = earlierSearch ? tracker.closerLookAfterSearch(whole, await earlierSearch) : tracker.closerLook(whole);
    const searchTiles = tracker.searchTiles(whole, fresh, frame);
    const tiles = searchTiles.length === 0 && looks.length === 0 && motion ? [motion] : searchTiles;
    if (tiles.length === 0) return { regions: looks, whole };
    if (tiles[0] === motion) this.lastMotionCheck = frame;
    const finds = this.searchTiles(side, slot, tiles, whole).then((found) => tracker.searchFinds(found, looks.length > 0 ? whole : undefined));
    this.search = {
      frame,
      cuts,
      people: finds.then(
        ({ people }) => people,
        () => [],
      ),
    };
    // Where the tiles find nobody confidently, the regions are the whole frame's own looks, if any.
    // The tiles only find: what they answered weakly elsewhere (a textured wall) stays out of the matte.
    return { regions: (await finds).regions, whole };
  }

  // The largest of the whole frame's mask and each tile's, pasted in place.
  private async searchTiles(side: Uint8Array, slot: Slot, tiles: Region[], whole: Float32Array): Promise<Float32Array> {
    const { spec } = this.segmenter;
    // Each tile its own tensor: the segmenter may read its input after segment() returns.
    const masks = tiles.map((tile) => {
      const view = this.viewOf(tile);
      return view.segmenter.segment(this.cropTensor(side, slot, tile, view, new Float32Array(view.segmenter.spec.width * view.segmenter.spec.height * 3)));
    });
    const merged = Float32Array.from(whole);
    const pasted = new Float32Array(merged.length);
    for (const [index, mask] of (await Promise.all(masks)).entries()) {
      pasted.fill(0);
      pasteRegion(mask, this.viewOf(tiles[index]).segmenter.spec, tiles[index], spec, pasted);
      for (let i = 0; i < merged.length; i++) if (pasted[i] > merged[i]) merged[i] = pasted[i];
    }
    return merged;
  }

  // The model on each of `regions`, pasted onto `known` (a mask of this frame already made), else
  // onto the whole frame's mask on a check frame, else onto nothing.
  private async segmentRegions(small: Uint8Array, side: Uint8Array, slot: Slot, regions: Region[], check: boolean, known?: Float32Array): Promise<Float32Array> {
    const { spec } = this.segmenter;
    const cropMasks = regions.map((region, index) => {
      const view = this.viewOf(region);
      const mask = view.segmenter.segment(this.cropTensor(side, slot, region, view, this.regionTensor(slot, view, index)));
      // Awaited below, in order; until then a failure must not count as unhandled.
      mask.catch(() => undefined);
      return mask;
    });
    const whole = check ? this.segmentWhole(small, slot.tensor, null) : undefined;
    whole?.catch(() => undefined);
    const settled = await Promise.all(cropMasks.map((mask, index) => this.widenUntilInside(side, slot, regions[index], mask, index)));
    // A region that could not hold its person gives way to the whole frame's mask.
    const wholeNeeded = settled.includes(null);
    const background = known ?? (whole ? await whole : wholeNeeded ? await this.segmentWhole(small, slot.tensor, null) : slot.pasted.fill(0));
    const pasted: Region[] = [];
    for (const crop of settled) {
      if (!crop) continue;
      pasteRegion(crop.mask, this.viewOf(crop.region).segmenter.spec, crop.region, spec, background, pasted);
      pasted.push(crop.region);
    }
    return background;
  }

  // The crop's mask once the person lies inside it: where it reaches a border of the region that is
  // not the picture's, the region is widened that way and the model runs again (crop-widening.ts).
  // Null: still cut after the last widening, or too wide to gain from a crop.
  private async widenUntilInside(side: Uint8Array, slot: Slot, region: Region, first: Promise<Float32Array>, index: number): Promise<{ region: Region; mask: Float32Array } | null> {
    const { spec } = this.segmenter;
    const { settings, widening } = this.tracking as NonNullable<FrameMatter['tracking']>;
    const view = this.viewOf(region);
    let crop = { region, mask: await first };
    for (let widenings = 0; ; widenings++) {
      const sides = touchedSides(crop.mask, view.segmenter.spec, crop.region, spec, widening.touchFrom);
      if (!sides) return crop;
      const wider = widenings < widening.maxWidenings ? widenedRegion(crop.region, sides, spec, widening.growth, settings.minZoom) : null;
      if (!wider) return null;
      // The first run has answered: its tensor is free again.
      crop = { region: wider, mask: await view.segmenter.segment(this.cropTensor(side, slot, wider, view, this.regionTensor(slot, view, index))) };
    }
  }

  // The view that sees `region`: the frame's own variant for what is wider than tall.
  private viewOf(region: Region): CropView {
    const { upright, wide } = this.tracking as NonNullable<FrameMatter['tracking']>;
    return region.wide ? wide : upright;
  }

  // The slot's tensor for the `index`th region seen through `view`, made on first use.
  private regionTensor(slot: Slot, view: CropView, index: number): Float32Array {
    const { width, height } = view.segmenter.spec;
    return (slot.cropTensors[view.tensors][index] ??= new Float32Array(width * height * 3));
  }

  // Fills `tensor` with `view`'s model input for `region` of the side frame.
  private cropTensor(side: Uint8Array, slot: Slot, region: Region, view: CropView, tensor: Float32Array): Float32Array {
    view.sampler.sample(side, region, slot.crop);
    view.input.write(slot.crop, view.segmenter.spec, tensor, null, 'half');
    return tensor;
  }
}

// Grid pixels outside every region that moved (1 in `moving`).
function movingPixelsOutside(regions: Region[], moving: Float32Array, width: number): number {
  let count = 0;
  const height = moving.length / width;
  // Plain loops: this runs on every grid pixel of every tracked frame, and a closure per pixel was
  // most of what the frame allocated.
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (moving[row + x] === 1 && !insideAny(regions, x + 0.5, y + 0.5)) count++;
    }
  }
  return count;
}

function insideAny(regions: Region[], x: number, y: number): boolean {
  for (const region of regions) {
    if (y >= region.y && y < region.y + region.height && x >= region.x && x < region.x + region.width) return true;
  }
  return false;
}

// A sigmoid's background answers are as small as 1e-30, and smoothing shrinks them further into
// subnormal floats, which the CPU handles tens of times slower. They are all 0 at 8 bits anyway.
function flushTiny(mask: Float32Array): Float32Array {
  for (let i = 0; i < mask.length; i++) if (mask[i] < 1e-4) mask[i] = 0;
  return mask;
}
