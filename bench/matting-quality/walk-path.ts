import type { Edge, Path } from './clip-spec';

export interface Size {
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

// Where the cut-out's top-left corner is at `t` seconds (rounded to whole pixels), in the world.
// `restY` is its top when standing; `seconds` the clip's length (an 'across' walk lasts all of it).
export function positionAt(path: Path, person: Size, world: Size, restY: number, seconds: number, t: number): Point {
  if (path.kind === 'across') {
    const share = Math.min(1, t / seconds);
    const travelled = path.inset + (world.width - person.width - 2 * path.inset) * share;
    return { x: Math.round(path.leftward ? world.width - person.width - travelled : travelled), y: restY };
  }
  const spot = { x: Math.round((path.lane ?? 0.5) * (world.width - person.width)), y: restY };
  const outside = (edge: Edge): Point => {
    if (edge === 'left') return { x: -person.width, y: restY };
    if (edge === 'right') return { x: world.width, y: restY };
    return { x: spot.x, y: edge === 'top' ? -person.height : world.height };
  };
  const from = outside(path.from);
  const to = outside(path.to);
  const pause = path.pause ?? 0;
  // Constant speed in and out: the walking time is shared by distance.
  const inward = distance(from, spot);
  const outward = distance(spot, to);
  const walking = path.end - path.start - pause;
  const arrive = path.start + (walking * inward) / (inward + outward);
  const depart = arrive + pause;
  if (t <= path.start) return from;
  if (t < arrive) return between(from, spot, (t - path.start) / (arrive - path.start));
  if (t <= depart) return spot;
  if (t < path.end) return between(spot, to, (t - depart) / (path.end - depart));
  return to;
}

const distance = (a: Point, b: Point): number => Math.hypot(b.x - a.x, b.y - a.y);

const between = (a: Point, b: Point, share: number): Point => ({ x: Math.round(a.x + (b.x - a.x) * share), y: Math.round(a.y + (b.y - a.y) * share) });

// Source frames played forward then backward, so a walk outlasts its short source clip.
export function pingPong(index: number, frames: number): number {
  if (frames === 1) return 0;
  const period = 2 * (frames - 1);
  const at = index % period;
  return at < frames ? at : period - at;
}
