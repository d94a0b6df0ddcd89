// Where the model should look next (decision 0041): the person region found in the finished mattes,
// with a margin, so a person small in the frame is cropped and seen several times larger. Works on
// the model's grid: the whole frame at the model's input size, in grid pixels. A region always has
// the grid's shape, so a crop resampled to the model's size keeps the whole frame's proportions.

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
  // Set where what the region is cut for is wider than tall (in grid pixels): the top of a head at
  // the picture's edge, people side by side. Such a crop is seen by the frame's own model variant
  // (decision 0070).
  wide?: true;
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
  // On a cropped frame whose number is a multiple of this, the whole frame is segmented too, to find
  // people entering outside the region (counted from the video's first frame, not from when tracking
  // began, so that a segment of a long video checks the frames one run would: decision 0100); and
  // sooner where the picture moves outside the regions (someone entering): where at least
  // `motionPixels` grid pixels there change by `motionFrom` (luma, 0..1) or more since the last
  // frame, at most every `motionCheckEvery` frames.
  checkEvery: number;
  motionFrom: number;
  motionPixels: number;
  motionCheckEvery: number;
  // Share of the way to a smaller region taken per frame: a region grows at once, shrinks slowly.
  shrinkRate: number;
  // While nobody is found, every this many frames the frame is also searched in four overlapping
  // tiles, each enlarged `searchZoom` times: a person too small for the whole frame's run to see
  // at all is found there.
  searchEvery: number;
  searchZoom: number;
  // A person missing from this many finished frames in a row is dropped; until then their region is
  // kept, moved on by their velocity. Frames are planned from masks `depth` frames old, so a person
  // dropped at once is missing again from the frames planned meanwhile, and again `depth` later.
  keepUnseen: number;
  // People get a region each, up to this many (a model run each), unless one region around them all
  // enlarges them within `shareWithin` as much as their own would; more people share one region.
  maxRegions: number;
  shareWithin: number;
  // Patches of foreground smaller than this many grid pixels get no region of their own (specks),
  // unless nothing larger is found.
  minPixels: number;
  // What the tile search finds counts as a person only where at least `coreShare` of the patch's
  // pixels reach `confidentFrom`: zoomed in, the model answers a textured wall weakly over a wide
  // patch (under 1 % confident, measured), a person strongly (about 90 %).
  confidentFrom: number;
  coreShare: number;
}

export const DEFAULT_TRACKING: TrackingSettings = {
  foregroundFrom: 0.25,
  margin: 0.25,
  maxZoom: 3,
  sourceScale: 2,
  minZoom: 1.25,
  checkEvery: 15,
  motionFrom: 0.06,
  motionPixels: 8,
  motionCheckEvery: 3,
  shrinkRate: 0.2,
  searchEvery: 30,
  searchZoom: 1.75,
  keepUnseen: 6,
  maxRegions: 3,
  shareWithin: 1.1,
  minPixels: 8,
  confidentFrom: 0.75,
  coreShare: 0.25,
};

// What the next frame runs: the model on each of `regions` (none: on the whole frame), and with
// `check` on the whole frame as well. Regions may overlap (people close together). `fresh`: the
// first frame, or the first after a cut (never with regions).
export interface RegionPlan {
  regions: Region[];
  check: boolean;
  fresh: boolean;
  // The frame's number, by start order from 1.
  frame: number;
}

// What a tile search found: the people, and the regions to look at them closer.
export interface SearchFinds {
  people: Box[];
  regions: Region[];
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

// A person (or people close together) followed from frame to frame: the box and its centre's
// movement per frame, averaged over the last few, and the finished frames since they were last seen.
interface Track {
  box: Box;
  velocity: { x: number; y: number };
  unseen: number;
}

const STILL = { x: 0, y: 0 };

// Frames are planned in order as they start and observed in order as they finish, some frames later
// (the pipeline's depth): boxes are carried forward over that lag by their velocity.
export class RegionTracker {
  private tracks: Track[] = [];
  // The last plan's regions: one per track, or one around them all.
  private regions: Region[] = [];
  private started: number;
  private observed: number;
  // The last closer look's regions, until a finished frame shows nobody: frames started before the
  // first one finished have no track yet, and the model may miss a small person in some of them.
  private recentLooks: Region[] = [];
  // The frame (by start order) last searched in tiles.
  private lastSearch = -Infinity;

  // `firstFrame`: the number in the whole video of the first frame planned here (a segment's).
  constructor(
    private readonly gridWidth: number,
    private readonly gridHeight: number,
    private readonly settings: TrackingSettings = DEFAULT_TRACKING,
    private readonly firstFrame = 1,
  ) {
    this.started = firstFrame - 1;
    this.observed = firstFrame - 1;
  }

  // The plan for the next frame to start; `cut` when its picture has nothing to do with the last.
  next(cut: boolean): RegionPlan {
    this.started++;
    if (cut) [this.tracks, this.recentLooks] = [[], []];
    const fresh = cut || this.started === this.firstFrame;
    const regions = this.plan(this.tracks, this.started - this.observed, this.regions);
    this.regions = regions;
    const frame = this.started;
    const check = regions.length > 0 && frame % this.settings.checkEvery === 0;
    return { regions: regions.map((region) => ({ ...region })), check, fresh, frame };
  }

  // The finished (smoothed) mask of the oldest frame not yet observed.
  observe(mask: Float32Array): void {
    this.observed++;
    const boxes = this.people(mask);
    const matched = matchTracks(this.tracks, boxes, this.settings.margin);
    const seen: Track[] = boxes.map((box, i) => {
      const track = matched[i];
      // Someone new, or people joining or parting (their box's centre jumps without anyone moving).
      if (!track || reshaped(track.box, box, this.settings.margin)) return { box, velocity: STILL, unseen: 0 };
      const dx = (box.x0 + box.x1 - track.box.x0 - track.box.x1) / 2;
      const dy = (box.y0 + box.y1 - track.box.y0 - track.box.y1) / 2;
      return { box, velocity: { x: (track.velocity.x + dx) / 2, y: (track.velocity.y + dy) / 2 }, unseen: 0 };
    });
    // Kept only while they could still get a region of their own (beyond maxRegions everyone shares
    // one), which also bounds the tracks on footage full of specks that come and go.
    const missing = this.tracks
      .filter((track) => !matched.includes(track) && track.unseen + 1 < this.settings.keepUnseen)
      .sort((a, b) => a.unseen - b.unseen)
      .slice(0, Math.max(0, this.settings.maxRegions - seen.length))
      .map(({ box, velocity, unseen }) => ({ box: { x0: box.x0 + velocity.x, y0: box.y0 + velocity.y, x1: box.x1 + velocity.x, y1: box.y1 + velocity.y }, velocity, unseen: unseen + 1 }));
    this.tracks = [...seen, ...missing];
    if (boxes.length === 0) this.recentLooks = [];
  }

  // The regions around the people in a frame's own whole-frame mask, for a second, closer look at
  // that frame (none: nobody found, or nobody small enough to gain from it). Where the model found
  // nobody, the last look's regions, if no finished frame has shown nobody since.
  closerLook(mask: Float32Array): Region[] {
    return this.lookAt(this.people(mask));
  }

  // The people the tile search found (its masks pasted in place), counting only patches with a
  // confident core, and the regions around them. With the whole frame's mask (a fresh frame searched
  // whoever it showed), the tiles only add whom it missed: the people it showed keep their own boxes.
  // The people go with the search to the frames that look where it found someone (FrameMatter), so a
  // cut planned meanwhile cannot take them from a frame before it.
  searchFinds(found: Float32Array, whole?: Float32Array): SearchFinds {
    const seen = whole ? this.people(whole) : [];
    const missed = this.people(found, this.settings.coreShare).filter((box) => !seen.some((known) => overlap(known, box)));
    const people = [...seen, ...missed];
    return { people, regions: this.lookAt(people) };
  }

  // A closer look for a frame started before an earlier frame's tile search ended (the pipeline's
  // first frames): the people its own whole frame shows, and those the search found that it does not.
  // Two people at 30 % of the height: each of the first whole frames showed one of them.
  closerLookAfterSearch(mask: Float32Array, searched: Box[]): Region[] {
    const seen = this.people(mask);
    return this.lookAt([...seen, ...searched.filter((box) => !seen.some((known) => overlap(known, box)))]);
  }

  // A region around the largest patch of `moving` (1 where the picture changed since the last
  // frame, else 0), for a closer look where the whole frame shows nobody: someone entering (a head
  // rising from the bottom edge) is too small or too cut for the whole frame's run. Null where too
  // little moved, or the region would enlarge the picture too little (a pan moves everything).
  motionRegion(moving: Float32Array): Region | null {
    const { gridWidth, gridHeight, settings } = this;
    const patches = foregroundColumns(moving, gridWidth, gridHeight, { foregroundFrom: 0.5, confidentFrom: Infinity });
    const largest = patches.reduce<Patch | null>((best, patch) => (!best || patch.pixels > best.pixels ? patch : best), null);
    if (!largest || largest.pixels < settings.motionPixels) return null;
    return this.follow(largest.box, 0, STILL, null);
  }

  private lookAt(boxes: Box[]): Region[] {
    if (boxes.length === 0) return this.recentLooks;
    this.recentLooks = this.plan(
      boxes.map((box) => ({ box, velocity: STILL, unseen: 0 })),
      0,
      [],
    );
    return this.recentLooks;
  }

  // The tiles to search a frame in, given its whole-frame mask, if a search is due: none until
  // searchEvery frames after the last search; on other than a fresh frame (RegionPlan), none where
  // the mask shows someone, or while someone is tracked or looked at. A fresh frame is searched
  // whoever its whole frame shows: it may show only some of the people (two people at 30 % of the
  // height: the first frames showed one). `frame`: the frame's number from its plan (by default the
  // last frame started), so the spacing does not depend on how many frames started meanwhile.
  searchTiles(whole: Float32Array, fresh = false, frame = this.started): Region[] {
    const { gridWidth, gridHeight, settings } = this;
    if (frame - this.lastSearch < settings.searchEvery) return [];
    if (!fresh && (this.tracks.length > 0 || this.recentLooks.length > 0 || foregroundBox(whole, gridWidth, gridHeight, settings.foregroundFrom))) return [];
    this.lastSearch = frame;
    const width = gridWidth / settings.searchZoom;
    const height = gridHeight / settings.searchZoom;
    return [0, gridHeight - height].flatMap((y) => [0, gridWidth - width].map((x) => ({ x, y, width, height })));
  }

  // One region around them all where it enlarges everyone about as much as their own would (one
  // model run), else one region per track (at most maxRegions); none (the whole frame) where a
  // region would enlarge the picture too little. Measured on people walking through a room: one
  // region per person gains 0.29 IoU over one around both (decision 0043).
  private plan(tracks: Track[], lag: number, previous: Region[]): Region[] {
    if (tracks.length === 0) return [];
    const all = tracks.reduce((union, track) => ({
      box: { x0: Math.min(union.box.x0, track.box.x0), y0: Math.min(union.box.y0, track.box.y0), x1: Math.max(union.box.x1, track.box.x1), y1: Math.max(union.box.y1, track.box.y1) },
      velocity: { x: (union.velocity.x + track.velocity.x) / 2, y: (union.velocity.y + track.velocity.y) / 2 },
      unseen: 0,
    }));
    const shared = this.follow(all.box, lag, all.velocity, previous.length === 1 ? previous[0] : null);
    if (tracks.length === 1 || tracks.length > this.settings.maxRegions) return shared ? [shared] : [];
    const each = tracks.map((track, i) => this.follow(track.box, lag, track.velocity, previous.length === tracks.length ? previous[i] : null));
    if (each.some((region) => region === null)) return shared ? [shared] : [];
    const widest = Math.max(...(each as Region[]).map((region) => region.width));
    return shared && shared.width <= widest * this.settings.shareWithin ? [shared] : (each as Region[]);
  }

  // The people in a mask: its foreground split where a column holds none of it (people stand side
  // by side), specks left out, and parts within each other's margin joined again (an arm, a gap
  // between legs).
  private people(mask: Float32Array, coreShare = 0): Box[] {
    const { gridWidth, gridHeight, settings } = this;
    const patches = foregroundColumns(mask, gridWidth, gridHeight, settings).filter((patch) => patch.core >= coreShare * patch.pixels);
    const largest = patches.reduce((best, patch) => (patch.pixels > best ? patch.pixels : best), 0);
    const kept = patches.filter((patch) => patch.pixels >= Math.min(settings.minPixels, largest)).map((patch) => patch.box);
    return joinNear(kept, settings.margin);
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
    return box.x1 - box.x0 > box.y1 - box.y0 ? { x, y, width, height, wide: true } : { x, y, width, height };
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

interface Patch {
  box: Box;
  // Grid pixels at or above foregroundFrom, and of those, at or above confidentFrom.
  pixels: number;
  core: number;
}

// The foreground's runs of columns (a column belongs when any of its pixels is at or above
// foregroundFrom), each with its bounding box and pixel counts.
export function foregroundColumns(mask: ArrayLike<number>, width: number, height: number, levels: Pick<TrackingSettings, 'foregroundFrom' | 'confidentFrom'>): Patch[] {
  const { foregroundFrom, confidentFrom } = levels;
  // Each column's extent and counts, gathered in the mask's own (row) order: reading it column by
  // column strides across memory on every pixel of every frame.
  const tops = new Int32Array(width).fill(-1);
  const bottoms = new Int32Array(width);
  const counts = new Int32Array(width);
  const cores = new Int32Array(width);
  for (let y = 0, i = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i++) {
      const value = mask[i];
      if (value < foregroundFrom) continue;
      if (tops[x] < 0) tops[x] = y;
      bottoms[x] = y + 1;
      counts[x]++;
      if (value >= confidentFrom) cores[x]++;
    }
  }
  const patches: Patch[] = [];
  let open: Patch | null = null;
  for (let x = 0; x < width; x++) {
    const top = tops[x];
    const bottom = bottoms[x];
    const pixels = counts[x];
    const core = cores[x];
    if (pixels === 0) {
      open = null;
      continue;
    }
    if (open) {
      open.box = { x0: open.box.x0, y0: Math.min(open.box.y0, top), x1: x + 1, y1: Math.max(open.box.y1, bottom) };
      open.pixels += pixels;
      open.core += core;
    } else {
      open = { box: { x0: x, y0: top, x1: x + 1, y1: bottom }, pixels, core };
      patches.push(open);
    }
  }
  return patches;
}

// A box grown by `margin` of its longer side on every side.
function grownBy(box: Box, margin: number): Box {
  const reach = margin * Math.max(box.x1 - box.x0, box.y1 - box.y0);
  return { x0: box.x0 - reach, y0: box.y0 - reach, x1: box.x1 + reach, y1: box.y1 + reach };
}

// Boxes joined while any two, each grown by `margin` of its longer side, overlap.
function joinNear(boxes: Box[], margin: number): Box[] {
  const grown = (box: Box): Box => grownBy(box, margin);
  const joined = [...boxes];
  for (let pair = nearPair(joined, grown); pair; pair = nearPair(joined, grown)) {
    const [i, j] = pair;
    const [a, b] = [joined[i], joined[j]];
    joined[i] = { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
    joined.splice(j, 1);
  }
  return joined;
}

function nearPair(boxes: Box[], grown: (box: Box) => Box): [number, number] | null {
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) if (overlap(grown(boxes[i]), grown(boxes[j]))) return [i, j];
  }
  return null;
}

function overlap(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// Whether a box's width or height changed by more than `share` of the larger: not one person
// moving, but people joining or parting.
function reshaped(before: Box, after: Box, share: number): boolean {
  const changed = (a: number, b: number) => Math.abs(a - b) > share * Math.max(a, b);
  return changed(before.x1 - before.x0, after.x1 - after.x0) || changed(before.y1 - before.y0, after.y1 - after.y0);
}

// For each box, the track it continues (null: someone new), one box per track, nearest centres
// first, and only a track whose box grown by `margin` overlaps it: a speck appearing beside a person
// must not take the person's track and turn the distance between them into a velocity.
function matchTracks(tracks: Track[], boxes: Box[], margin: number): (Track | null)[] {
  const pairs = boxes.flatMap((box, b) =>
    tracks
      .map((track, t) => ({ b, t, distance: Math.hypot(track.box.x0 + track.box.x1 - box.x0 - box.x1, track.box.y0 + track.box.y1 - box.y0 - box.y1) }))
      .filter(({ t }) => overlap(grownBy(tracks[t].box, margin), box)),
  );
  pairs.sort((a, b) => a.distance - b.distance);
  const matched: (Track | null)[] = boxes.map(() => null);
  const taken = new Set<number>();
  for (const { b, t } of pairs) {
    if (matched[b] || taken.has(t)) continue;
    matched[b] = tracks[t];
    taken.add(t);
  }
  return matched;
}
