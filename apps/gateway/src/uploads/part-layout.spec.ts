import { partLayout, partSize } from './part-layout';

const MIB = 1024 ** 2;

describe('partLayout', () => {
  it('cuts a file into parts of the configured size, the last holding the rest', () => {
    const layout = partLayout(40 * MIB + 3, 16 * MIB);
    expect(layout).toEqual({ part_size: 16 * MIB, count: 3 });
    expect([1, 2, 3].map((part) => partSize(layout, 40 * MIB + 3, part))).toEqual([16 * MIB, 16 * MIB, 8 * MIB + 3]);
  });

  it('makes a file smaller than a part one part of its own size', () => {
    const layout = partLayout(5, 16 * MIB);
    expect(layout).toEqual({ part_size: 16 * MIB, count: 1 });
    expect(partSize(layout, 5, 1)).toBe(5);
  });

  it("grows the parts, in whole MiB, where the configured size would need more than S3's 10,000", () => {
    const fileSize = 50 * 1024 ** 3;
    const layout = partLayout(fileSize, 5 * MIB);
    expect(layout.count).toBeLessThanOrEqual(10_000);
    expect(layout.part_size % MIB).toBe(0);
    expect(layout.part_size).toBe(6 * MIB);
    expect(partSize(layout, fileSize, layout.count)).toBeGreaterThan(0);
  });
});
