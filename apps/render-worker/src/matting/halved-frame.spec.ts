import { halveSideFrame, halvesTo } from './halved-frame';

describe('halveSideFrame', () => {
  // A 4x2 side frame (yuv420p): luma rows, then its 2x1 U and V planes.
  const side = Uint8Array.from([
    ...[10, 20, 100, 101],
    ...[30, 41, 102, 102],
    ...[50, 60],
    ...[70, 80],
  ]);

  it("averages each 2x2 block of luma, rounded, and keeps the chroma planes as the model's", () => {
    const out = halveSideFrame(side, { width: 2, height: 1 }, new Uint8Array(6));
    // (10+20+30+41+2)>>2 = 25; (100+101+102+102+2)>>2 = 101.
    expect([...out]).toEqual([25, 101, 50, 60, 70, 80]);
  });

  it('applies only to a side frame exactly twice the model a side', () => {
    expect(halvesTo({ width: 512, height: 288 }, { width: 256, height: 144 })).toBe(true);
    expect(halvesTo({ width: 512, height: 286 }, { width: 256, height: 144 })).toBe(false);
  });
});
