import { seededRandom } from './camera';
import type { FurnitureKind, FurnitureSpec } from './clip-spec';
import type { PixelBox } from './matte-score';
import type { Size } from './walk-path';

// Furniture drawn into a room picture (rgb24): flat shapes with a vertical light falloff and a little
// noise, enough for the model to take some for a person (the empty frames' figure measures that).

// A part's extent, in fractional pixels.
interface Bounds {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

type Rgb = readonly [number, number, number];

// A part of an object: where it is (`inside`, within `box`) and its colour from its top to its bottom.
interface Part {
  box: Bounds;
  inside(x: number, y: number): boolean;
  top: Rgb;
  bottom: Rgb;
}

// Draws the object standing on the world's bottom edge and returns the box it covers, in world
// pixels.
export function drawFurniture(picture: Uint8Array, world: Size, frameHeight: number, item: FurnitureSpec, seed: number): PixelBox {
  const parts = SHAPES[item.kind](world.width * item.at, world.height, item.height * frameHeight);
  const noise = seededRandom(seed);
  for (const part of parts) paint(picture, world, part, noise);
  return {
    x0: Math.max(0, Math.floor(Math.min(...parts.map((part) => part.box.x0)))),
    y0: Math.max(0, Math.floor(Math.min(...parts.map((part) => part.box.y0)))),
    x1: Math.min(world.width, Math.ceil(Math.max(...parts.map((part) => part.box.x1)))),
    y1: Math.min(world.height, Math.ceil(Math.max(...parts.map((part) => part.box.y1)))),
  };
}

const STEEL: [Rgb, Rgb] = [[0x2e, 0x30, 0x33], [0x18, 0x19, 0x1b]];
const BLACK_FABRIC: [Rgb, Rgb] = [[0x2a, 0x2a, 0x2c], [0x14, 0x14, 0x16]];
const NAVY_COAT: [Rgb, Rgb] = [[0x2c, 0x33, 0x44], [0x17, 0x1b, 0x25]];

// Each object from its centre `cx`, the floor's y and its height `s`, in pixels.
const SHAPES: Record<FurnitureKind, (cx: number, floor: number, s: number) => Part[]> = {
  // A wooden top on a dark X-shaped steel base.
  table: (cx, floor, s) => [
    bar(cx - 0.75 * s, floor - 0.92 * s, cx + 0.75 * s, floor - 0.03 * s, 0.035 * s, STEEL),
    bar(cx + 0.75 * s, floor - 0.92 * s, cx - 0.75 * s, floor - 0.03 * s, 0.035 * s, STEEL),
    bar(cx - 0.85 * s, floor - 0.02 * s, cx + 0.85 * s, floor - 0.02 * s, 0.02 * s, STEEL),
    rect(cx - 1.1 * s, floor - s, cx + 1.1 * s, floor - 0.92 * s, [[0xc8, 0xa2, 0x7a], [0x9c, 0x74, 0x4c]]),
  ],
  // A dark coat over the chair's back, its hood up where a head would be.
  'coat-on-chair': (cx, floor, s) => [
    ...chair(cx, floor, s),
    ellipse(cx, floor - 0.9 * s, 0.36 * s, 0.13 * s, NAVY_COAT),
    ellipse(cx, floor - 1.02 * s, 0.13 * s, 0.12 * s, NAVY_COAT),
    trapezoid(cx, floor - 0.92 * s, 0.72 * s, floor - 0.3 * s, 0.56 * s, NAVY_COAT),
  ],
  // A terracotta pot under a dark, bushy crown.
  plant: (cx, floor, s) => {
    const leaves: [Rgb, Rgb] = [[0x3a, 0x6b, 0x35], [0x1e, 0x3d, 0x1c]];
    return [
      trapezoid(cx, floor - 0.3 * s, 0.34 * s, floor, 0.24 * s, [[0xb0, 0x5c, 0x36], [0x82, 0x40, 0x24]]),
      ellipse(cx, floor - 0.6 * s, 0.26 * s, 0.3 * s, leaves),
      ellipse(cx - 0.2 * s, floor - 0.5 * s, 0.18 * s, 0.2 * s, leaves),
      ellipse(cx + 0.2 * s, floor - 0.52 * s, 0.18 * s, 0.2 * s, leaves),
      ellipse(cx + 0.05 * s, floor - 0.86 * s, 0.15 * s, 0.14 * s, leaves),
    ];
  },
};

// A black office chair: back, seat, post and a five-spoke base seen from the front.
function chair(cx: number, floor: number, s: number): Part[] {
  return [
    bar(cx, floor - 0.44 * s, cx, floor - 0.1 * s, 0.03 * s, STEEL),
    bar(cx, floor - 0.1 * s, cx - 0.32 * s, floor - 0.03 * s, 0.02 * s, STEEL),
    bar(cx, floor - 0.1 * s, cx + 0.32 * s, floor - 0.03 * s, 0.02 * s, STEEL),
    bar(cx, floor - 0.1 * s, cx, floor - 0.03 * s, 0.02 * s, STEEL),
    ellipse(cx - 0.32 * s, floor - 0.025 * s, 0.025 * s, 0.025 * s, STEEL),
    ellipse(cx + 0.32 * s, floor - 0.025 * s, 0.025 * s, 0.025 * s, STEEL),
    roundedRect(cx - 0.26 * s, floor - s, cx + 0.26 * s, floor - 0.5 * s, 0.08 * s, BLACK_FABRIC),
    roundedRect(cx - 0.32 * s, floor - 0.52 * s, cx + 0.32 * s, floor - 0.42 * s, 0.03 * s, BLACK_FABRIC),
  ];
}

function rect(x0: number, y0: number, x1: number, y1: number, [top, bottom]: [Rgb, Rgb]): Part {
  return { box: { x0, y0, x1, y1 }, inside: () => true, top, bottom };
}

function roundedRect(x0: number, y0: number, x1: number, y1: number, r: number, [top, bottom]: [Rgb, Rgb]): Part {
  const inside = (x: number, y: number): boolean => {
    const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
    const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
    return dx * dx + dy * dy <= r * r;
  };
  return { box: { x0, y0, x1, y1 }, inside, top, bottom };
}

function ellipse(cx: number, cy: number, rx: number, ry: number, [top, bottom]: [Rgb, Rgb]): Part {
  const inside = (x: number, y: number): boolean => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1;
  return { box: { x0: cx - rx, y0: cy - ry, x1: cx + rx, y1: cy + ry }, inside, top, bottom };
}

// Centred on `cx`, `topWidth` wide at `y0` and `bottomWidth` at `y1`.
function trapezoid(cx: number, y0: number, topWidth: number, y1: number, bottomWidth: number, [top, bottom]: [Rgb, Rgb]): Part {
  const half = Math.max(topWidth, bottomWidth) / 2;
  const inside = (x: number, y: number): boolean => Math.abs(x - cx) <= (topWidth + ((bottomWidth - topWidth) * (y - y0)) / (y1 - y0)) / 2;
  return { box: { x0: cx - half, y0, x1: cx + half, y1 }, inside, top, bottom };
}

// A straight bar of radius `r` from one end to the other, round-ended.
function bar(ax: number, ay: number, bx: number, by: number, r: number, [top, bottom]: [Rgb, Rgb]): Part {
  const length2 = (bx - ax) ** 2 + (by - ay) ** 2;
  const inside = (x: number, y: number): boolean => {
    const along = length2 === 0 ? 0 : Math.min(1, Math.max(0, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / length2));
    return (x - ax - along * (bx - ax)) ** 2 + (y - ay - along * (by - ay)) ** 2 <= r * r;
  };
  const box = { x0: Math.min(ax, bx) - r, y0: Math.min(ay, by) - r, x1: Math.max(ax, bx) + r, y1: Math.max(ay, by) + r };
  return { box, inside, top, bottom };
}

// 3x3 samples a pixel give soft edges; the noise (up to 4 levels either way) gives the texture a
// camera would.
function paint(picture: Uint8Array, world: Size, part: Part, noise: () => number): void {
  const { box } = part;
  const x0 = Math.max(0, Math.floor(box.x0));
  const x1 = Math.min(world.width, Math.ceil(box.x1));
  const y0 = Math.max(0, Math.floor(box.y0));
  const y1 = Math.min(world.height, Math.ceil(box.y1));
  for (let y = y0; y < y1; y++) {
    const down = Math.min(1, Math.max(0, (y + 0.5 - box.y0) / (box.y1 - box.y0)));
    for (let x = x0; x < x1; x++) {
      let covered = 0;
      for (let sy = 0; sy < 3; sy++) for (let sx = 0; sx < 3; sx++) if (part.inside(x + (sx + 0.5) / 3, y + (sy + 0.5) / 3)) covered++;
      if (covered === 0) continue;
      const cover = covered / 9;
      const grain = (noise() - 0.5) * 8;
      const at = (y * world.width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const colour = part.top[c]! + (part.bottom[c]! - part.top[c]!) * down + grain;
        picture[at + c] = Math.min(255, Math.max(0, Math.round(picture[at + c]! + cover * (colour - picture[at + c]!))));
      }
    }
  }
}
