// Where the model should look next (issue 14): the person region found in the finished mattes,
// with a margin, so a person small in the frame is cropped and seen several times larger. Works on
// the model's grid: the whole frame at the model's input size, in grid pixels. A region always has
// the grid's shape, so a crop resampled to the model's size keeps the whole frame's proportions.

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TrackingSettings {
  // Mask value from which a grid pixel counts as the person.
  foregroundFrom: number;
  // Room left around the person's box on every side, as a share of its longer side: arms and feet
  // that the last matte missed, and movement the velocity does not predict.
  margin: number;
  // The most a crop enlarges the frame.
  maxZoom: number;
  // The decoder's crop source is at most this many times the grid's size a side (without
  // refinement; with it, the side frame is the full-size picture anyway): more pixels cost the
  // decoder and this thread on every frame, tracked or not.
  sourceScale: number;
  // Below this enlargement the whole frame is used: the gain is too small to pay for the crop.
  minZoom: number;
  // Every this many cropped frames the whole frame is segmented too, to find people entering outside
  // the region.
  checkEvery: number;
  // Share of the way to a smaller region taken per frame: a region grows at once, shrinks slowly.
  shrinkRate: number;
  // While nobody is found, every this many frames the frame is also searched in four overlapping
  // tiles, each enlarged `searchZoom` times: a person too small for the whole frame's run to see
  // at all is found there.
  searchEvery: number;
  searchZoom: number;
}

export const DEFAULT_TRACKING: TrackingSettings = { foregroundFrom: 0.25, margin: 0.25, maxZoom: 3, sourceScale: 2, minZoom: 1.25, checkEvery: 15, shrinkRate: 0.2, searchEvery: 30, searchZoom: 1.75 };

// What the next frame runs: the model on `region` (null: on the whole frame), and with `check` on
// the whole frame as well.
export interface RegionPlan {
  region: Region | null;
  check: boolean;
}

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

// Frames are planned in order as they start and observed in order as they finish, some frames later
// (the pipeline's depth): the box is carried forward over that lag by its velocity.
export class RegionTracker {
  private box: Box | null = null;
  private velocity = { x: 0, y: 0 };
  private region: Region | null = null;
  private started = 0;
  private observed = 0;
  private sinceCheck = 0;
  // The last closer look's region, until a finished frame shows nobody: frames started before the
  // first one finished have no box yet, and the model may miss a small person in some of them.
  private recentLook: Region | null = null;
  // The frame (by start order) last searched in tiles.
  private lastSearch = -Infinity;

  constructor(
    private readonly gridWidth: number,
    private readonly gridHeight: number,
    private readonly settings: TrackingSettings = DEFAULT_TRACKING,
  ) {}

  // The plan for the next frame to start; `cut` when its picture has nothing to do with the last.
  next(cut: boolean): RegionPlan {
    this.started++;
    if (cut) [this.box, this.recentLook] = [null, null];
    const region = this.box ? this.follow(this.box, this.started - this.observed, this.velocity, this.region) : null;
    this.region = region;
    if (!region) {
      this.sinceCheck = 0;
      return { region: null, check: false };
    }
    this.sinceCheck++;
    const check = this.sinceCheck >= this.settings.checkEvery;
    if (check) this.sinceCheck = 0;
    return { region: { ...region }, check };
  }

  // The finished (smoothed) mask of the oldest frame not yet observed.
  observe(mask: Float32Array): void {
    this.observed++;
    const box = foregroundBox(mask, this.gridWidth, this.gridHeight, this.settings.foregroundFrom);
    if (box && this.box) {
      // Centre movement per frame, averaged over the last few.
      const dx = (box.x0 + box.x1 - this.box.x0 - this.box.x1) / 2;
      const dy = (box.y0 + box.y1 - this.box.y0 - this.box.y1) / 2;
      this.velocity = { x: (this.velocity.x + dx) / 2, y: (this.velocity.y + dy) / 2 };
    } else {
      this.velocity = { x: 0, y: 0 };
    }
    if (!box) this.recentLook = null;
    this.box = box;
  }

  // The region around the person in a frame's own whole-frame mask, for a second, closer look at
  // that frame (null: nobody found, or nobody small enough to gain from it). Where the model found
  // nobody, the last look's region, if no finished frame has shown nobody since.
  closerLook(mask: Float32Array): Region | null {
    const box = foregroundBox(mask, this.gridWidth, this.gridHeight, this.settings.foregroundFrom);
    if (!box) return this.recentLook;
    this.recentLook = this.follow(box, 0, { x: 0, y: 0 }, null);
    return this.recentLook;
  }

  // The tiles to search a frame in, given its whole-frame mask, if a search is due: none where the
  // mask shows someone, while someone is tracked or looked at, or until searchEvery frames after
  // the last search.
  searchTiles(whole: Float32Array): Region[] {
    const { gridWidth, gridHeight, settings } = this;
    if (this.box || this.recentLook || this.started - this.lastSearch < settings.searchEvery) return [];
    if (foregroundBox(whole, gridWidth, gridHeight, settings.foregroundFrom)) return [];
    this.lastSearch = this.started;
    const width = gridWidth / settings.searchZoom;
    const height = gridHeight / settings.searchZoom;
    return [0, gridHeight - height].flatMap((y) => [0, gridWidth - width].map((x) => ({ x, y, width, height })));
  }

  private follow(box: Box, lag: number, velocity: { x: number; y: number }, previous: Region | null): Region | null {
    const { gridWidth, gridHeight, settings } = this;
    const side = Math.max(box.x1 - box.x0, box.y1 - box.y0);
    const reachX = settings.margin * side + Math.abs(velocity.x) * lag;
    const reachY = settings.margin * side + Math.abs(velocity.y) * lag;
    const shiftX = velocity.x * lag;
    const shiftY = velocity.y * lag;
    // The predicted box with its margin: what the region must hold.
    const need = { x0: box.x0 + shiftX - reachX, x1: box.x1 + shiftX + reachX, y0: box.y0 + shiftY - reachY, y1: box.y1 + shiftY + reachY };
    const aspect = gridWidth / gridHeight;
    let width = Math.max(need.x1 - need.x0, (need.y1 - need.y0) * aspect, gridWidth / settings.maxZoom);
    if (previous && width < previous.width) width = previous.width + settings.shrinkRate * (width - previous.width);
    if (width * settings.minZoom >= gridWidth) return null;
    const height = width / aspect;
    // Moved only as far as the need asks, so a person standing still gets a region that stands still.
    const x = place(previous ? previous.x + (previous.width - width) / 2 : (need.x0 + need.x1 - width) / 2, width, need.x0, need.x1, gridWidth);
    const y = place(previous ? previous.y + (previous.height - height) / 2 : (need.y0 + need.y1 - height) / 2, height, need.y0, need.y1, gridHeight);
    return { x, y, width, height };
  }
}

// The start of a span of `size` nearest `from` that covers [low, high] (as far as it can) and stays
// within [0, limit].
function place(from: number, size: number, low: number, high: number, limit: number): number {
  let start = from;
  if (start > low) start = low;
  if (start + size < high) start = high - size;
  return Math.min(Math.max(start, 0), limit - size);
}

// The bounding box, in grid pixels (x1, y1 exclusive), of the pixels at or above `from`; null when
// there are none.
export function foregroundBox(mask: Float32Array, width: number, height: number, from: number): Box | null {
  let x0 = width;
  let y0 = height;
  let x1 = 0;
  let y1 = 0;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    let first = -1;
    let last = -1;
    for (let x = 0; x < width; x++) {
      if (mask[row + x] >= from) {
        if (first < 0) first = x;
        last = x;
      }
    }
    if (first < 0) continue;
    if (first < x0) x0 = first;
    if (last + 1 > x1) x1 = last + 1;
    if (y < y0) y0 = y;
    y1 = y + 1;
  }
  return x1 > x0 ? { x0, y0, x1, y1 } : null;
}
