// Scores of a video's matte against its reference, frame by frame (8-bit alpha, same size).

export interface MatteScore {
  frames: number;
  // Intersection over union of the foregrounds (alpha >= 128), averaged over frames, and the worst
  // frame's. A frame where both are empty counts as 1.
  meanIou: number;
  worstIou: number;
  worstFrame: number;
  // Mean absolute alpha error, 0 to 1.
  mae: number;
  // Mean absolute alpha change from the previous frame where the reference is background (0) in both:
  // on a static background, what a viewer sees as shimmer. 0 to 1.
  flicker: number;
}

export function scoreMattes(matte: readonly Uint8Array[], reference: readonly Uint8Array[]): MatteScore {
  if (matte.length !== reference.length || matte.length === 0) throw new Error(`${matte.length} matte frames for ${reference.length} reference frames`);
  let iouSum = 0;
  let worstIou = 1;
  let worstFrame = 0;
  let errorSum = 0;
  let pixels = 0;
  let flickerSum = 0;
  let flickerPixels = 0;
  for (let f = 0; f < matte.length; f++) {
    const a = matte[f]!;
    const r = reference[f]!;
    if (a.length !== r.length) throw new Error(`frame ${f}: ${a.length} matte pixels for ${r.length} reference pixels`);
    let both = 0;
    let either = 0;
    for (let i = 0; i < a.length; i++) {
      const inA = a[i]! >= 128;
      const inR = r[i]! >= 128;
      if (inA && inR) both++;
      if (inA || inR) either++;
      errorSum += Math.abs(a[i]! - r[i]!);
    }
    pixels += a.length;
    const iou = either === 0 ? 1 : both / either;
    iouSum += iou;
    if (iou < worstIou) [worstIou, worstFrame] = [iou, f];
    if (f > 0) {
      const previous = matte[f - 1]!;
      const previousReference = reference[f - 1]!;
      for (let i = 0; i < a.length; i++) {
        if (r[i] !== 0 || previousReference[i] !== 0) continue;
        flickerSum += Math.abs(a[i]! - previous[i]!);
        flickerPixels++;
      }
    }
  }
  return {
    frames: matte.length,
    meanIou: iouSum / matte.length,
    worstIou,
    worstFrame,
    mae: errorSum / pixels / 255,
    flicker: flickerPixels === 0 ? 0 : flickerSum / flickerPixels / 255,
  };
}
