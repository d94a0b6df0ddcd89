import { DEFAULT_TRACKING, foregroundBox, RegionTracker, type Region, type TrackingSettings } from './region-tracker';

const [GRID_W, GRID_H] = [64, 36];

// A grid mask with the person as a filled box (x1, y1 exclusive).
function maskWith(...boxes: [number, number, number, number][]): Float32Array {
  return paint(new Float32Array(GRID_W * GRID_H), 0.9, ...boxes);
}

function paint(mask: Float32Array, value: number, ...boxes: [number, number, number, number][]): Float32Array {
  for (const [x0, y0, x1, y1] of boxes) for (let y = y0; y < y1; y++) mask.fill(value, y * GRID_W + x0, y * GRID_W + x1);
  return mask;
}

const contains = (region: Region, [x0, y0, x1, y1]: [number, number, number, number]) =>
  region.x <= x0 && region.y <= y0 && region.x + region.width >= x1 && region.y + region.height >= y1;

function tracker(settings: Partial<TrackingSettings> = {}): RegionTracker {
  return new RegionTracker(GRID_W, GRID_H, { ...DEFAULT_TRACKING, ...settings });
}

// Plans `frames` frames with the person standing at `box`, observing each frame as soon as it starts.
function follow(subject: RegionTracker, box: [number, number, number, number], frames = 1): Region | null {
  let region: Region | null = null;
  for (let i = 0; i < frames; i++) {
    region = subject.next(false).regions[0] ?? null;
    subject.observe(maskWith(box));
  }
  return region;
}

describe('foregroundBox', () => {
  it('bounds the pixels at or above the threshold, and is null without any', () => {
    expect(foregroundBox(maskWith([3, 4, 9, 20], [30, 10, 31, 11]), GRID_W, GRID_H, 0.5)).toEqual({ x0: 3, y0: 4, x1: 31, y1: 20 });
    expect(foregroundBox(maskWith(), GRID_W, GRID_H, 0.5)).toBeNull();
    expect(foregroundBox(maskWith([3, 4, 9, 20]), GRID_W, GRID_H, 0.95)).toBeNull();
  });
});

describe('RegionTracker', () => {
  it('runs the whole frame until a finished frame shows someone, then a region around them in the grid’s shape', () => {
    const subject = tracker();
    expect(subject.next(false)).toEqual({ regions: [], check: false, fresh: true, frame: 1 });
    subject.observe(maskWith([20, 14, 24, 26]));
    const { regions } = subject.next(false);
    expect(regions).toHaveLength(1);
    const r = regions[0];
    expect(contains(r, [20, 14, 24, 26])).toBe(true);
    // The margin: a quarter of the box's longer side (12 rows) on every side.
    expect(contains(r, [17, 11, 27, 29])).toBe(true);
    expect(r.width / r.height).toBeCloseTo(GRID_W / GRID_H, 6);
    expect(r.x).toBeGreaterThanOrEqual(0);
    expect(r.y + r.height).toBeLessThanOrEqual(GRID_H + 1e-9);
  });

  it('uses the whole frame when the person fills too much of it to gain from a crop', () => {
    expect(follow(tracker(), [4, 2, 60, 34], 3)).toBeNull();
  });

  it('never crops tighter than maxZoom allows', () => {
    const region = follow(tracker(), [30, 17, 31, 18], 3) as Region;
    expect(region.width).toBeCloseTo(GRID_W / DEFAULT_TRACKING.maxZoom, 6);
  });

  it('keeps a still person’s region still, and shrinks it slowly but grows it at once', () => {
    const subject = tracker();
    const first = follow(subject, [20, 14, 24, 26], 3) as Region;
    expect(follow(subject, [20, 14, 24, 26])).toEqual(first);
    // A smaller box (its region would be 10 / 12 as wide): the region only creeps towards it, a
    // frame after the box was seen.
    const shrunk = follow(subject, [21, 15, 24, 25], 2) as Region;
    const target = (first.width * 10) / 12;
    expect(shrunk.width).toBeCloseTo(first.width + DEFAULT_TRACKING.shrinkRate * (target - first.width), 6);
    // A taller person: the next region holds them with their margin at once.
    const grown = follow(subject, [20, 12, 24, 28], 2) as Region;
    expect(contains(grown, [16, 8, 28, 32])).toBe(true);
  });

  it('carries the box forward by its velocity over the frames still in flight', () => {
    const subject = tracker();
    // Four frames in flight: each plan sees the box of the frame four before it.
    const plans: (Region | null)[] = [];
    for (let frame = 0; frame < 20; frame++) {
      plans.push(subject.next(false).regions[0] ?? null);
      const seen = frame - 3;
      if (seen >= 0) subject.observe(maskWith([4 + 2 * seen, 14, 8 + 2 * seen, 26]));
    }
    // The person at frame 19 (moving 2 columns a frame) is inside the region planned for it.
    expect(contains(plans[19] as Region, [4 + 38, 14, 8 + 38, 26])).toBe(true);
  });

  it('checks the whole frame on the cropped frames whose number is a multiple of checkEvery', () => {
    const subject = tracker({ checkEvery: 3 });
    follow(subject, [20, 14, 24, 26]);
    const checks = Array.from({ length: 9 }, () => {
      const plan = subject.next(false);
      subject.observe(maskWith([20, 14, 24, 26]));
      return plan.check && plan.frame;
    });
    expect(checks).toEqual([false, 3, false, false, 6, false, false, 9, false]);
  });

  it('numbers the frames of a segment as the whole video does, so it checks the frames one run would', () => {
    const whole = tracker({ checkEvery: 4 });
    const segment = new RegionTracker(GRID_W, GRID_H, { ...DEFAULT_TRACKING, checkEvery: 4 }, 102);
    for (let frame = 1; frame < 102; frame++) follow(whole, [20, 14, 24, 26]);
    const plans = (subject: RegionTracker) =>
      Array.from({ length: 8 }, () => {
        const plan = subject.next(false);
        subject.observe(maskWith([20, 14, 24, 26]));
        return { frame: plan.frame, check: plan.check };
      });
    const segmentPlans = plans(segment);
    // The segment's first frame is fresh, planned on the whole frame: from its second on, the same checks.
    expect(segmentPlans[0]).toEqual({ frame: 102, check: false });
    expect(segmentPlans.slice(1)).toEqual(plans(whole).slice(1));
    expect(segmentPlans.filter(({ check }) => check).map(({ frame }) => frame)).toEqual([104, 108]);
  });

  it('goes back to the whole frame on a cut, and once the person is missing from keepUnseen finished frames', () => {
    const subject = tracker();
    follow(subject, [20, 14, 24, 26], 2);
    expect(subject.next(true).regions).toEqual([]);
    const region = follow(subject, [20, 14, 24, 26], 3);
    // Missing from a frame or two (planned without their region, say): the region stays.
    for (let frame = 1; frame < DEFAULT_TRACKING.keepUnseen; frame++) {
      subject.observe(maskWith());
      expect(subject.next(false).regions).toEqual([region]);
    }
    subject.observe(maskWith());
    expect(subject.next(false).regions).toEqual([]);
  });

  it('offers a closer look at a frame’s own mask, and the last one where the model found nobody', () => {
    const subject = tracker();
    const looks = subject.closerLook(maskWith([20, 14, 24, 26]));
    expect(looks).toHaveLength(1);
    expect(contains(looks[0], [17, 11, 27, 29])).toBe(true);
    // Frames started before the first finished: a miss keeps the last look...
    expect(subject.closerLook(maskWith())).toEqual(looks);
    // ...until a finished frame shows nobody.
    subject.next(false);
    subject.observe(maskWith());
    expect(subject.closerLook(maskWith())).toEqual([]);
    expect(subject.closerLook(maskWith([0, 0, 64, 36]))).toEqual([]);
  });

  it('marks a region around what is wider than tall (the top of a head at an edge), not one around a standing person', () => {
    const [standing] = tracker().closerLook(maskWith([20, 14, 24, 26]));
    const [headTop] = tracker().closerLook(maskWith([20, 32, 28, 36]));
    expect(standing.wide).toBeUndefined();
    expect(headTop.wide).toBe(true);
    expect(contains(headTop, [20, 32, 28, 36])).toBe(true);
  });

  it('counts what the tile search found only where a quarter of a patch is confident', () => {
    // A wide patch answered weakly (a wall, seen closer), a few confident pixels in it, and a person.
    const found = paint(paint(maskWith([4, 20, 8, 32]), 0.5, [30, 2, 60, 20]), 0.9, [40, 8, 42, 10]);
    expect(tracker().searchFinds(found).regions).toEqual(tracker().closerLook(maskWith([4, 20, 8, 32])));
    expect(tracker().searchFinds(paint(new Float32Array(GRID_W * GRID_H), 0.5, [30, 2, 60, 20]))).toEqual({ people: [], regions: [] });
  });

  it("adds to the whole frame's people only those the tiles found elsewhere, keeping the whole frame's boxes", () => {
    const seen: [number, number, number, number] = [4, 20, 8, 32];
    const missed: [number, number, number, number] = [40, 4, 44, 16];
    // The tiles saw the known person larger, and the one the whole frame missed.
    const found = maskWith([3, 18, 9, 33], missed);
    expect(tracker().searchFinds(found, maskWith(seen)).regions).toEqual(tracker().closerLook(maskWith(seen, missed)));
  });

  it('has a frame started during a search add whom the search found to whom its own whole frame shows', () => {
    const seen: [number, number, number, number] = [4, 20, 8, 32];
    const missed: [number, number, number, number] = [40, 4, 44, 16];
    const subject = tracker();
    const { people } = subject.searchFinds(maskWith([3, 18, 9, 33], missed), maskWith(seen));
    // The next frame shows the first person a little further on: their own box, and the search's second.
    expect(subject.closerLookAfterSearch(maskWith([5, 20, 9, 32]), people)).toEqual(tracker().closerLook(maskWith([5, 20, 9, 32], missed)));
    // A cut planned meanwhile changes nothing for that frame: the search's people came with it.
    subject.next(true);
    expect(subject.closerLookAfterSearch(maskWith([5, 20, 9, 32]), people)).toEqual(tracker().closerLook(maskWith([5, 20, 9, 32], missed)));
  });

  it('does not let a patch appearing beside a person take over their track and its velocity', () => {
    const subject = tracker();
    const person: [number, number, number, number] = [20, 14, 24, 26];
    const before = follow(subject, person, 3) as Region;
    // A speck the size minPixels lets through, well away from the person: someone new, standing still.
    const speck: [number, number, number, number] = [50, 2, 53, 5];
    subject.next(false);
    subject.observe(maskWith(person, speck));
    subject.next(false);
    subject.observe(maskWith(person, speck));
    const { regions } = subject.next(false);
    expect(regions).toHaveLength(2);
    expect(regions[0]).toEqual(before);
    expect(regions[1].width).toBeCloseTo(GRID_W / DEFAULT_TRACKING.maxZoom, 6);
  });

  describe('several people', () => {
    const LEFT: [number, number, number, number] = [4, 20, 8, 32];
    const RIGHT: [number, number, number, number] = [54, 20, 58, 32];
    const observeBoth = (subject: RegionTracker, ...boxes: [number, number, number, number][]) => {
      subject.next(false);
      subject.observe(maskWith(...boxes));
    };
    const overlapping = (a: Region, b: Region) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

    it('gives people standing apart a region each, which never overlap', () => {
      const subject = tracker();
      observeBoth(subject, LEFT, RIGHT);
      const { regions } = subject.next(false);
      expect(regions).toHaveLength(2);
      expect(contains(regions[0], LEFT)).toBe(true);
      expect(contains(regions[1], RIGHT)).toBe(true);
      expect(overlapping(regions[0], regions[1])).toBe(false);
    });

    it('gives people whose regions overlap a region each where one around both would enlarge them less', () => {
      const subject = tracker();
      observeBoth(subject, [10, 14, 14, 26], [34, 14, 38, 26]);
      const { regions } = subject.next(false);
      expect(regions).toHaveLength(2);
      expect(overlapping(regions[0], regions[1])).toBe(true);
      expect(contains(regions[0], [10, 14, 14, 26])).toBe(true);
      expect(contains(regions[1], [34, 14, 38, 26])).toBe(true);
    });

    it('does not turn the jump of a box’s centre, as people join, into a velocity', () => {
      const subject = tracker();
      observeBoth(subject, [20, 20, 24, 32]);
      observeBoth(subject, [20, 20, 24, 32]);
      const before = subject.next(false).regions;
      // Someone steps up beside them: one box, three times as wide, its centre 4 columns further
      // right. The region already holds both, and stays (a velocity would have moved it on).
      subject.observe(maskWith([20, 20, 32, 32]));
      expect(subject.next(false).regions).toEqual(before);
    });

    it('gives people close together one region around both', () => {
      const subject = tracker();
      observeBoth(subject, [20, 20, 24, 32], [28, 20, 32, 32]);
      const { regions } = subject.next(false);
      expect(regions).toHaveLength(1);
      expect(contains(regions[0], [20, 20, 32, 32])).toBe(true);
    });

    it('gives more people than maxRegions one region around them all, or the whole frame', () => {
      const subject = tracker({ maxRegions: 2 });
      observeBoth(subject, [4, 26, 6, 32], [30, 26, 32, 32], [58, 26, 60, 32]);
      const { regions } = subject.next(false);
      expect(regions.length).toBeLessThanOrEqual(1);
    });

    it('keeps one person split by a gap (an arm held out) in one region', () => {
      const subject = tracker();
      observeBoth(subject, [20, 14, 24, 26], [26, 16, 30, 18]);
      const { regions } = subject.next(false);
      expect(regions).toHaveLength(1);
      expect(contains(regions[0], [20, 14, 30, 26])).toBe(true);
    });

    it('gives a speck of foreground no region of its own', () => {
      const subject = tracker();
      observeBoth(subject, LEFT, [50, 2, 52, 4]);
      const { regions } = subject.next(false);
      expect(regions).toHaveLength(1);
      expect(contains(regions[0], LEFT)).toBe(true);
    });

    it('carries each person forward by their own velocity', () => {
      const subject = tracker();
      // Walking towards each other, two columns a frame each, four frames in flight.
      const at = (frame: number): [number, number, number, number][] => [
        [4 + 2 * frame, 20, 8 + 2 * frame, 32],
        [56 - 2 * frame, 20, 60 - 2 * frame, 32],
      ];
      const plans: Region[][] = [];
      for (let frame = 0; frame < 8; frame++) {
        plans.push(subject.next(false).regions);
        const seen = frame - 3;
        if (seen >= 0) subject.observe(maskWith(...at(seen)));
      }
      expect(plans[7]).toHaveLength(2);
      expect(contains(plans[7][0], at(7)[0])).toBe(true);
      expect(contains(plans[7][1], at(7)[1])).toBe(true);
    });

    it('offers a closer look at each person apart in a frame', () => {
      const looks = tracker().closerLook(maskWith(LEFT, RIGHT));
      expect(looks).toHaveLength(2);
      expect(contains(looks[0], LEFT)).toBe(true);
      expect(contains(looks[1], RIGHT)).toBe(true);
    });
  });

  it('plans at most maxRegions regions for frames full of specks that come and go (hostile footage)', () => {
    // The model's real grid: 51 patches of 3x3 pixels a frame, each too far from the next to join,
    // shifted every frame so that most are new and the old ones are kept as missing.
    const [width, height] = [256, 144];
    const subject = new RegionTracker(width, height, DEFAULT_TRACKING);
    for (let frame = 0; frame < 60; frame++) {
      const { regions } = subject.next(false);
      expect(regions.length).toBeLessThanOrEqual(DEFAULT_TRACKING.maxRegions);
      const mask = new Float32Array(width * height);
      for (let x = frame % 5; x + 3 <= width; x += 5) for (let y = 70; y < 73; y++) mask.fill(0.9, y * width + x, y * width + x + 3);
      subject.observe(mask);
      expect(subject.closerLook(mask).length).toBeLessThanOrEqual(DEFAULT_TRACKING.maxRegions);
    }
  });

  it('searches in four overlapping corner tiles only where nobody is found, at most every searchEvery frames', () => {
    const subject = tracker({ searchEvery: 5 });
    subject.next(false);
    const tiles = subject.searchTiles(maskWith());
    const [width, height] = [GRID_W / DEFAULT_TRACKING.searchZoom, GRID_H / DEFAULT_TRACKING.searchZoom];
    expect(tiles).toEqual([
      { x: 0, y: 0, width, height },
      { x: GRID_W - width, y: 0, width, height },
      { x: 0, y: GRID_H - height, width, height },
      { x: GRID_W - width, y: GRID_H - height, width, height },
    ]);
    // Overlapping, so a person on a tile's edge is whole in another.
    expect(width * 2).toBeGreaterThan(GRID_W);
    for (let frame = 1; frame < 5; frame++) {
      subject.next(false);
      expect(subject.searchTiles(maskWith())).toEqual([]);
    }
    subject.next(false);
    expect(subject.searchTiles(maskWith([20, 14, 24, 26]))).toEqual([]);
    expect(subject.searchTiles(maskWith())).toHaveLength(4);
    // Not while someone is tracked.
    subject.observe(maskWith([20, 14, 24, 26]));
    for (let frame = 0; frame < 10; frame++) subject.next(false);
    expect(subject.searchTiles(maskWith())).toEqual([]);
  });

  it('searches a fresh frame (the first, or after a cut) whoever its whole frame shows, still at most every searchEvery frames', () => {
    const subject = tracker({ searchEvery: 5 });
    const someone = maskWith([20, 14, 24, 26]);
    expect(subject.next(false).fresh).toBe(true);
    expect(subject.searchTiles(someone, true)).toHaveLength(4);
    subject.observe(someone);
    expect(subject.next(false).fresh).toBe(false);
    // Tracked and seen: not searched, fresh or not, until searchEvery frames have passed.
    expect(subject.searchTiles(someone, true)).toEqual([]);
    for (let frame = 0; frame < 4; frame++) subject.next(false);
    expect(subject.searchTiles(someone)).toEqual([]);
    const { fresh } = subject.next(true);
    expect(fresh).toBe(true);
    expect(subject.searchTiles(someone, fresh)).toHaveLength(4);
  });

  it("spaces searches by the searching frames' own numbers, however many frames have started since", () => {
    const subject = tracker({ searchEvery: 5 });
    const first = subject.next(false);
    // Frames 2 to 6 start before the first frame's whole-frame answer comes back.
    const later = [2, 3, 4, 5, 6].map(() => subject.next(false).frame);
    expect([first.frame, ...later]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(subject.searchTiles(maskWith(), first.fresh, first.frame)).toHaveLength(4);
    expect(subject.searchTiles(maskWith(), false, 5)).toEqual([]);
    expect(subject.searchTiles(maskWith(), false, 6)).toHaveLength(4);
  });
});

