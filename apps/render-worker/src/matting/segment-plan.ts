// How a long background removal is cut into segments matted apart (issue 40), by frame number.
// Each segment delivers frames [from, to). It is matted from `matteFrom`, the warm-up before `from`, so
// that its tracking, smoothing and background plate have seen what came before when its first
// delivered frame comes; its input starts at `cutFrom`, the last keyframe at or before that, where
// the source's packets can be copied without decoding. Frame numbers here count from 0; the matting
// numbers a video's frames from 1, so a segment's pipeline is given `firstFrame: matteFrom + 1`, and
// its background plate and its tracker's checks keep the whole run's schedule (decision 0100).

export interface SegmentPlanRequest {
  frames: number;
  fps: number;
  // The frame numbers of the source's keyframes, ascending; frame 0 is one whatever the list says.
  keyframes: readonly number[];
  segmentSeconds: number;
  warmupSeconds: number;
}

export interface Segment {
  index: number;
  cutFrom: number;
  matteFrom: number;
  from: number;
  to: number;
}

// A boundary moves to a keyframe this share of a segment away at most: then the previous segment's
// input ends where a packet copy can end it.
const SNAP_SHARE = 0.25;

export function segmentPlan({ frames, fps, keyframes, segmentSeconds, warmupSeconds }: SegmentPlanRequest): Segment[] {
  if (!(frames > 0 && fps > 0 && segmentSeconds > 0 && warmupSeconds >= 0)) throw new RangeError('a segment plan needs frames, a frame rate and a segment length');
  const starts = [0, ...keyframes.filter((frame) => frame > 0 && frame < frames)];
  const length = Math.max(1, Math.round(segmentSeconds * fps));
  const warmup = Math.round(warmupSeconds * fps);
  const boundaries = [0];
  for (let target = length; target < frames - length / 2; target = boundaries.at(-1)! + length) {
    const near = nearest(starts, target);
    boundaries.push(Math.abs(near - target) <= length * SNAP_SHARE && near > boundaries.at(-1)! ? near : target);
  }
  return boundaries.map((from, index) => {
    const matteFrom = Math.max(0, from - warmup);
    return { index, cutFrom: lastAtOrBefore(starts, matteFrom), matteFrom, from, to: boundaries[index + 1] ?? frames };
  });
}

// Where a segment's frames are found by time (matting-args.ts FrameWindow): the time to seek to, just
// past its keyframe's (null for the first keyframe: read from the start), and the times halfway
// between neighbouring frames at which its matted and its delivered frames begin and end, so that each
// frame falls on its side of every cut whatever the rounding. Where the times are known every segment
// of a video is cut by them, the first included, so all agree on which frame is which.
export interface SegmentTimes {
  seek: number | null;
  start: number;
  delivered: number;
  end: number;
}

export function segmentTimes(times: readonly number[], { cutFrom, matteFrom, from, to }: Segment): SegmentTimes {
  const at = (frame: number) => times[Math.min(frame, times.length - 1)]!;
  const halfway = (frame: number) => (frame >= times.length ? at(frame) + 1 : frame === 0 ? at(0) - 1 : (at(frame - 1) + at(frame)) / 2);
  const seek = cutFrom === 0 ? null : at(cutFrom) + (at(cutFrom + 1) - at(cutFrom)) / 4;
  return { seek, start: halfway(matteFrom), delivered: halfway(from), end: halfway(to) };
}

function nearest(sorted: readonly number[], target: number): number {
  return sorted.reduce((best, frame) => (Math.abs(frame - target) < Math.abs(best - target) ? frame : best), sorted[0]!);
}

function lastAtOrBefore(sorted: readonly number[], frame: number): number {
  let found = 0;
  for (const start of sorted) {
    if (start > frame) break;
    found = start;
  }
  return found;
}
