// Scores of a video's matte against its reference, frame by frame (8-bit alpha, same size).

// Under this share of the picture, the reference's foreground is a sliver of someone at an edge (a
// hand, a few rows of hair): its IoU would swing between 0 and 1 on a few pixels and make every
// clip's worst frame its first.
export const MIN_PERSON_SHARE = 0.001;

export interface MatteScore {
  frames: number;
  // Intersection over union of the foregrounds (alpha >= 128), averaged over the frames where the
  // reference shows someone (MIN_PERSON_SHARE of the picture at least), and the worst of those
  // frames'. The empty frames are scored apart (emptyKept): there a stray speck would make the
  // frame's IoU 0 and hide the person's figures; a sliver counts in neither. With no one in any
  // frame, both are 1.
  meanIou: number;
  worstIou: number;
  worstFrame: number;
  // Each frame's IoU, null where the reference shows nobody or a sliver; and beside it, as shares
  // of the reference's foreground, what the matte missed of it and what it kept beyond it.
  frameIous: (number | null)[];
  frameErrors: ({ missed: number; extra: number } | null)[];
  // Mean absolute alpha error, 0 to 1.
  mae: number;
  // Mean absolute alpha change from the previous frame where the reference is background (0) in both:
  // on a static background, what a viewer sees as shimmer. 0 to 1.
  flicker: number;
  // The frames whose reference has no pixel at alpha >= 128, and the share of their pixels the matte
  // keeps (alpha >= 128): what an empty room loses to the matte (0 when no frame is empty).
  emptyFrames: number;
  emptyKept: number;
  // The empty frame where the matte keeps the most, or null where it keeps nothing in any.
  mostKeptFrame: number | null;
}

export function scoreMattes(matte: readonly Uint8Array[], reference: readonly Uint8Array[]): MatteScore {
  if (matte.length !== reference.length || matte.length === 0) throw new Error(`${matte.length} matte frames for ${reference.length} reference frames`);
  let iouSum = 0;
  let iouFrames = 0;
  // Above any IoU, so the first frame that shows someone is the worst until a worse one comes.
  let worstIou = 2;
  let worstFrame = 0;
  let errorSum = 0;
  let pixels = 0;
  let flickerSum = 0;
  let flickerPixels = 0;
  let emptyFrames = 0;
  let emptyPixels = 0;
  let keptPixels = 0;
  let mostKept = 0;
  let mostKeptFrame: number | null = null;
  const frameIous: (number | null)[] = [];
  const frameErrors: MatteScore['frameErrors'] = [];
  for (let f = 0; f < matte.length; f++) {
    frameIous.push(null);
    frameErrors.push(null);
    const a = matte[f]!;
    const r = reference[f]!;
    if (a.length !== r.length) throw new Error(`frame ${f}: ${a.length} matte pixels for ${r.length} reference pixels`);
    let both = 0;
    let inMatte = 0;
    let inReference = 0;
    for (let i = 0; i < a.length; i++) {
      const inA = a[i]! >= 128;
      const inR = r[i]! >= 128;
      if (inA) inMatte++;
      if (inR) inReference++;
      if (inA && inR) both++;
      errorSum += Math.abs(a[i]! - r[i]!);
    }
    pixels += a.length;
    if (inReference >= MIN_PERSON_SHARE * a.length) {
      const iou = both / (inMatte + inReference - both);
      frameIous[f] = iou;
      frameErrors[f] = { missed: (inReference - both) / inReference, extra: (inMatte - both) / inReference };
      iouSum += iou;
      iouFrames++;
      if (iou < worstIou) [worstIou, worstFrame] = [iou, f];
    } else if (inReference === 0) {
      emptyFrames++;
      emptyPixels += a.length;
      keptPixels += inMatte;
      if (inMatte > mostKept) [mostKept, mostKeptFrame] = [inMatte, f];
    }
    if (f > 0) {
      forEachBackgroundChange(matte, reference, f, (_i, change) => {
        flickerSum += change;
        flickerPixels++;
      });
    }
  }
  return {
    frames: matte.length,
    meanIou: iouFrames === 0 ? 1 : iouSum / iouFrames,
    worstIou: iouFrames === 0 ? 1 : worstIou,
    worstFrame,
    frameIous,
    frameErrors,
    mae: errorSum / pixels / 255,
    flicker: flickerPixels === 0 ? 0 : flickerSum / flickerPixels / 255,
    emptyFrames,
    emptyKept: emptyPixels === 0 ? 0 : keptPixels / emptyPixels,
    mostKeptFrame,
  };
}

// Over the frames whose reference is empty, the share of a box's pixels the matte keeps (alpha >= 128):
// how much of one piece of furniture the matte takes for a person. `boxes` holds the box in each
// frame (it moves with the camera), null where it is out of the frame; the result is 0 where the
// box is never seen in an empty frame.
export function keptInBox(matte: readonly Uint8Array[], reference: readonly Uint8Array[], width: number, boxes: readonly (PixelBox | null)[]): number {
  let inside = 0;
  let kept = 0;
  for (let f = 0; f < matte.length; f++) {
    const box = boxes[f];
    if (!box || reference[f]!.some((value) => value >= 128)) continue;
    for (let y = box.y0; y < box.y1; y++) {
      for (let x = box.x0; x < box.x1; x++) if (matte[f]![y * width + x]! >= 128) kept++;
    }
    inside += (box.x1 - box.x0) * (box.y1 - box.y0);
  }
  return inside === 0 ? 0 : kept / inside;
}

// A box in whole pixels, x1 and y1 excluded.
export interface PixelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

// The bench's flicker split by where it happens: within `nearPixels` of the reference person in either
// frame (the outline sweeping over the background as they move: a fringe or a soft edge) and beyond
// it (the background itself shimmering, or something kept far from anyone). Each is a share of all
// the pixels the flicker is taken over, so the two add up to scoreMattes' flicker.
export function flickerByDistance(matte: readonly Uint8Array[], reference: readonly Uint8Array[], width: number, nearPixels: number): { near: number; beyond: number } {
  let near = 0;
  let beyond = 0;
  let pixels = 0;
  let previousNear = nearPerson(reference[0]!, width, nearPixels);
  for (let f = 1; f < matte.length; f++) {
    const nearNow = nearPerson(reference[f]!, width, nearPixels);
    forEachBackgroundChange(matte, reference, f, (i, change) => {
      pixels++;
      if (nearNow[i] === 1 || previousNear[i] === 1) near += change;
      else beyond += change;
    });
    previousNear = nearNow;
  }
  return pixels === 0 ? { near: 0, beyond: 0 } : { near: near / pixels / 255, beyond: beyond / pixels / 255 };
}

// What the flicker is taken over: each pixel where the reference is background (0) in frame f and the
// one before it, with the matte's alpha change between the two.
function forEachBackgroundChange(matte: readonly Uint8Array[], reference: readonly Uint8Array[], f: number, visit: (pixel: number, change: number) => void): void {
  const [a, previous, r, previousReference] = [matte[f]!, matte[f - 1]!, reference[f]!, reference[f - 1]!];
  for (let i = 0; i < a.length; i++) {
    if (r[i] !== 0 || previousReference[i] !== 0) continue;
    visit(i, Math.abs(a[i]! - previous[i]!));
  }
}

// 1 within `reach` pixels (a square around each) of where the reference shows anyone (alpha above 0).
function nearPerson(reference: Uint8Array, width: number, reach: number): Uint8Array {
  const height = reference.length / width;
  const rows = new Uint8Array(reference.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (reference[y * width + x] === 0) continue;
      rows.fill(1, y * width + Math.max(0, x - reach), y * width + Math.min(width, x + reach + 1));
    }
  }
  const near = new Uint8Array(reference.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (rows[y * width + x] === 0) continue;
      for (let dy = Math.max(0, y - reach); dy <= Math.min(height - 1, y + reach); dy++) near[dy * width + x] = 1;
    }
  }
  return near;
}
