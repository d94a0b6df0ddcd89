import type { PictureSize } from './region-crop';
import type { Region } from './region-tracker';

// A crop must never cut a person (decision 0066): where the model's mask of a crop reaches the crop's
// border, and that border lies inside the picture, the person goes on beyond it (a head entering
// from the bottom edge, an arm raised out of the region). The region is widened towards those
// sides and the model runs again; past a few widenings the whole frame is used.

export interface WideningSettings {
  // Mask value from which a border pixel counts as the person reaching it.
  touchFrom: number;
  // Each widening multiplies the region's sides by this.
  growth: number;
  // Widenings tried before the whole frame is used.
  maxWidenings: number;
}

export const DEFAULT_WIDENING: WideningSettings = { touchFrom: 0.5, growth: 1.5, maxWidenings: 2 };

export interface Sides {
  left: boolean;
  right: boolean;
  top: boolean;
  bottom: boolean;
}

// Less than this from the grid's edge, a region's side is the picture's own edge: nothing lies
// beyond it to widen towards.
const AT_EDGE = 0.5;

// The sides of `region` (in grid pixels) that the crop's mask (the crop model's mask of the crop, of
// `crop`'s size) reaches, counting only sides inside the picture. Null where it reaches none.
export function touchedSides(mask: Float32Array, crop: PictureSize, region: Region, grid: PictureSize, touchFrom: number): Sides | null {
  const { width, height } = crop;
  const reaches = (from: number, step: number, count: number): boolean => {
    for (let k = 0, i = from; k < count; k++, i += step) if (mask[i] >= touchFrom) return true;
    return false;
  };
  const sides: Sides = {
    left: region.x > AT_EDGE && reaches(0, width, height),
    right: region.x + region.width < grid.width - AT_EDGE && reaches(width - 1, width, height),
    top: region.y > AT_EDGE && reaches(0, 1, width),
    bottom: region.y + region.height < grid.height - AT_EDGE && reaches((height - 1) * width, 1, width),
  };
  return sides.left || sides.right || sides.top || sides.bottom ? sides : null;
}

// `region` grown `growth` times, with the grid's shape, extended towards the touched sides (the
// opposite side stays where it was unless both are touched), within the grid. Null where the grown
// region would enlarge the picture less than `minZoom` times: the whole frame is then used.
export function widenedRegion(region: Region, sides: Sides, grid: PictureSize, growth: number, minZoom: number): Region | null {
  const width = Math.min(grid.width, region.width * growth);
  if (width * minZoom >= grid.width) return null;
  const height = (width * grid.height) / grid.width;
  const x = towards(region.x, region.width, width, sides.left, sides.right);
  const y = towards(region.y, region.height, height, sides.top, sides.bottom);
  const widened = { x: clamp(x, 0, grid.width - width), y: clamp(y, 0, grid.height - height), width, height };
  return region.wide ? { ...widened, wide: true } : widened;
}

// The start of a span grown from [start, start + size) to `grown`: towards the low side only, the
// high side only, or evenly.
function towards(start: number, size: number, grown: number, low: boolean, high: boolean): number {
  if (low && !high) return start + size - grown;
  if (high && !low) return start;
  return start - (grown - size) / 2;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}
