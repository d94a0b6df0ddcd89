import { halveSideFrame } from './halved-frame';
import { ModelInput, writeLumaChange, type YuvMatrix } from './model-input';
import { MatteBuilder, type MatteSettings } from './matte-builder';
import type { Segmenter } from './matting-model';
import { cropBytes, pasteRegion, RegionSampler, type PictureSize } from './region-crop';
import { RegionTracker, type Box, type Region, type TrackingSettings } from './region-tracker';
import { TemporalSmoother, type SmoothingSettings } from './temporal-smoother';

export interface FrameMatterSettings {
  width: number;
  height: number;
  matrix: YuvMatrix;
  matte: MatteSettings;
  smoothing: SmoothingSettings;
  // Cropping to the person (issue 14), from the decoder's side frame: the whole frame as yuv420p at
  // `sideSize`. Null: the model always sees the whole frame.
  tracking: { settings: TrackingSettings; sideSize: PictureSize } | null;
  // Frames started and not yet finished, at most (see runFramePipeline).
  depth: number;
}

// A frame whose model run is under way.
export interface PendingMatte {
  luma: Float32Array;
  fullLuma: Uint8Array | undefined;
  mask: Promise<Float32Array>;
}

interface Slot {
  // The model's frame when it is made from the side frame (start() without one), made on first use.
  small?: Uint8Array;
  tensor: Float32Array;
  luma: Float32Array;
  // A crop as the model's input (grid-sized, chroma at half resolution); each region's tensor (the
  // second and later made when first needed: most videos have one person); and the whole-grid mask
  // the crops' masks are pasted onto.
  crop: Uint8Array;
  cropTensors: Float32Array[];
  pasted: Float32Array;
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
  // With tracking: where the model looks next, and what cuts crops from the side frame.
  private readonly tracking: { tracker: RegionTracker; sampler: RegionSampler } | null;
  // One set of model inputs per frame in flight: they are read by model runs while others are filled.
  private readonly slots: Slot[];
  private nextSlot = 0;
  // The last tile search, kept once it has ended, with the number of the frame that made it, the
  // fresh frames (cuts) started up to it (see segmentCloser) and the people it found.
  private search: { frame: number; cuts: number; people: Promise<Box[]> } | null = null;
  private cuts = 0;

  constructor(
    private readonly segmenter: Segmenter,
    private readonly settings: FrameMatterSettings,
  ) {
    const { spec } = segmenter;
    const pixels = spec.width * spec.height;
    this.input = new ModelInput(spec.width, spec.height, settings.matrix);
    this.smoother = new TemporalSmoother(spec.width, spec.height, settings.smoothing);
    this.builder = new MatteBuilder(spec.width, spec.height, settings.width, settings.height, settings.matte);
    this.tracking = settings.tracking
      ? { tracker: new RegionTracker(spec.width, spec.height, settings.tracking.settings), sampler: new RegionSampler(settings.tracking.sideSize, spec) }
      : null;
    const cropped = settings.tracking ? pixels : 0;
    this.slots = Array.from({ length: settings.depth }, () => ({
      tensor: new Float32Array(pixels * 3),
      luma: new Float32Array(pixels),
      crop: new Uint8Array(settings.tracking ? cropBytes(spec) : 0),
      cropTensors: [new Float32Array(cropped * 3)],
      pasted: new Float32Array(cropped),
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
    return { luma: slot.luma, fullLuma, mask };
  }

  async finish(pending: PendingMatte): Promise<Uint8Array> {
    const mask = flushTiny(await pending.mask);
    this.smoother.smooth(mask, pending.luma);
    this.tracking?.tracker.observe(mask);
    return this.builder.build(mask, pending.luma, pending.fullLuma);
  }

  private segmentTracked(small: Uint8Array, side: Uint8Array, slot: Slot, previousLuma: Float32Array): Promise<Float32Array> {
    const { tracker } = this.tracking as NonNullable<FrameMatter['tracking']>;
    // The same test the smoother makes: a cut's person may be anywhere. The first frame's previous
    // slot is still empty, and it has no region to lose.
    const cut = writeLumaChange(small, slot.luma, previousLuma) >= this.settings.smoothing.cutFrom;
    const { regions, check, fresh, frame } = tracker.next(cut);
    if (fresh) this.cuts++;
    return regions.length > 0 ? this.segmentRegions(small, side, slot, regions, check) : this.segmentCloser(small, side, slot, { fresh, frame, cuts: this.cuts });
  }

  // `luma`: null where segmentTracked has written it already.
  private segmentWhole(small: Uint8Array, tensor: Float32Array, luma: Float32Array | null): Promise<Float32Array> {
    this.input.write(small, this.segmenter.spec, tensor, luma, 'full');
    return this.segmenter.segment(tensor);
  }

  // A whole frame while tracking (the first, a cut, the person lost): where the model finds people
  // small, it looks again at crops around them, so the frames before the tracker catches up are
  // not the weak ones. Where it finds nobody, or on a fresh frame whoever it finds, a search in
  // tiles may find more (region-tracker.ts). `frame`: its number by start order; `cuts`: the fresh
  // frames started up to it.
  private async segmentCloser(small: Uint8Array, side: Uint8Array, slot: Slot, { fresh, frame, cuts }: { fresh: boolean; frame: number; cuts: number }): Promise<Float32Array> {
    const { tracker } = this.tracking as NonNullable<FrameMatter['tracking']>;
    const whole = await this.segmentWhole(small, slot.tensor, null);
    // A frame started while an earlier frame that searched was still in flight (the pipeline's depth)
    // also looks where that search found people: whether the search is still under way or ended while
    // this frame's model ran depends on timing, the frames chosen do not. Not across a cut: after one,
    // what came before tells nothing.
    const { search } = this;
    const earlierSearch = !fresh && search && search.cuts === cuts && search.frame < frame && frame - search.frame < this.settings.depth ? search.people : null;
    const looks = earlierSearch ? tracker.closerLookAfterSearch(whole, await earlierSearch) : tracker.closerLook(whole);
    const tiles = tracker.searchTiles(whole, fresh, frame);
    if (tiles.length === 0) return looks.length > 0 ? this.segmentRegions(small, side, slot, looks, false, whole) : whole;
    // Waiting frames resume once the search's regions are known, not merely once its masks are.
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
    const { regions } = await finds;
    // The tiles only find: what they answered weakly elsewhere (a textured wall) stays out of the matte.
    return regions.length > 0 ? this.segmentRegions(small, side, slot, regions, false, whole) : whole;
  }

  // The largest of the whole frame's mask and each tile's, pasted in place.
  private async searchTiles(side: Uint8Array, slot: Slot, tiles: Region[], whole: Float32Array): Promise<Float32Array> {
    const { spec } = this.segmenter;
    // Each tile its own tensor: the segmenter may read its input after segment() returns.
    const masks = tiles.map((tile) => this.segmenter.segment(this.cropTensor(side, slot, tile, new Float32Array(spec.width * spec.height * 3))));
    const merged = Float32Array.from(whole);
    const pasted = new Float32Array(merged.length);
    for (const [index, mask] of (await Promise.all(masks)).entries()) {
      pasted.fill(0);
      pasteRegion(mask, tiles[index], spec, pasted);
      for (let i = 0; i < merged.length; i++) if (pasted[i] > merged[i]) merged[i] = pasted[i];
    }
    return merged;
  }

  // The model on each of `regions`, pasted onto `known` (a mask of this frame already made), else
  // onto the whole frame's mask on a check frame, else onto nothing.
  private async segmentRegions(small: Uint8Array, side: Uint8Array, slot: Slot, regions: Region[], check: boolean, known?: Float32Array): Promise<Float32Array> {
    const { spec } = this.segmenter;
    const cropMasks = regions.map((region, index) => {
      slot.cropTensors[index] ??= new Float32Array(spec.width * spec.height * 3);
      const mask = this.segmenter.segment(this.cropTensor(side, slot, region, slot.cropTensors[index]));
      // Awaited below, in order; until then a failure must not count as unhandled.
      mask.catch(() => undefined);
      return mask;
    });
    const whole = check ? this.segmentWhole(small, slot.tensor, null) : undefined;
    whole?.catch(() => undefined);
    const background = known ?? (whole ? await whole : slot.pasted.fill(0));
    for (const [index, mask] of cropMasks.entries()) pasteRegion(await mask, regions[index], spec, background, regions.slice(0, index));
    return background;
  }

  // Fills `tensor` with the model's input for `region` of the side frame.
  private cropTensor(side: Uint8Array, slot: Slot, region: Region, tensor: Float32Array): Float32Array {
    const { spec } = this.segmenter;
    (this.tracking as NonNullable<FrameMatter['tracking']>).sampler.sample(side, region, slot.crop);
    this.input.write(slot.crop, spec, tensor, null, 'half');
    return tensor;
  }
}

// A sigmoid's background answers are as small as 1e-30, and smoothing shrinks them further into
// subnormal floats, which the CPU handles tens of times slower. They are all 0 at 8 bits anyway.
function flushTiny(mask: Float32Array): Float32Array {
  for (let i = 0; i < mask.length; i++) if (mask[i] < 1e-4) mask[i] = 0;
  return mask;
}
