import { deflateSync, inflateSync } from 'node:zlib';
import { BackgroundPlate, DEFAULT_PLATE, type PlateSnapshot } from './background-plate';
import { decodePlateSnapshot, encodePlateSnapshot, PlateSnapshotFileError } from './plate-snapshot-file';

const MAX_BYTES = 1024 * 1024;

function snapshot(): PlateSnapshot {
  const plane = (length: number, scale: number) => Float32Array.from({ length }, (_, i) => i * scale + 0.1);
  return {
    luma: plane(64, 1.5),
    chromaU: plane(16, 0.25),
    chromaV: plane(16, 0.75),
    seen: Uint8Array.from({ length: 64 }, (_, i) => i % 256),
    referenceLuma: plane(16, 1 / 3),
    near: Uint8Array.from({ length: 16 }, (_, i) => i & 1),
    previousEntering: Uint8Array.from({ length: 16 }, (_, i) => (i >> 1) & 1),
    empty: true,
  };
}

describe('plate snapshot files', () => {
  it('give back every plane to the bit, and whether the scene was empty', async () => {
    const original = snapshot();
    const decoded = await decodePlateSnapshot(await encodePlateSnapshot(original), MAX_BYTES);
    expect(decoded).toEqual(original);
    expect(decoded.luma).toBeInstanceOf(Float32Array);
    expect(decoded.seen).toBeInstanceOf(Uint8Array);
  });

  it('carry a real plate from one BackgroundPlate to another of its size', async () => {
    const size = { width: 8, height: 8 };
    const grid = { width: 4, height: 4 };
    const learned = new BackgroundPlate(size, grid, 0, DEFAULT_PLATE);
    const picture = { bytes: Uint8Array.from({ length: 64 * 3 }, (_, i) => 40 + (i % 150)), chromaShift: 0 as const };
    const quiet = { moved: new Uint8Array(16), stirred: new Uint8Array(16) };
    for (let frame = 0; frame < 4; frame++) learned.fuse(new Uint8Array(64), new Float32Array(16), picture, true, new Float32Array(16).fill(0.4), quiet);
    const restored = new BackgroundPlate(size, grid, 0, DEFAULT_PLATE);
    restored.restore(await decodePlateSnapshot(await encodePlateSnapshot(learned.snapshot()), MAX_BYTES));
    expect(restored.snapshot()).toEqual(learned.snapshot());
    expect(() => new BackgroundPlate({ width: 16, height: 8 }, grid, 0, DEFAULT_PLATE).restore(learned.snapshot())).toThrow(RangeError);
  });

  it('refuses bytes that are not a whole plate of this version', async () => {
    const whole = deflateSync(Buffer.from('VJPLATE1'));
    const encoded = await encodePlateSnapshot(snapshot());
    const raw = inflateSync(encoded);
    const cases: [string, Buffer][] = [
      ['not deflated', Buffer.from('plain bytes')],
      ['another format', deflateSync(Buffer.from('VJPLATE9'))],
      ['no planes', whole],
      ['cut short', deflateSync(raw.subarray(0, raw.length - 10))],
      ['bytes past the end', deflateSync(Buffer.concat([raw, Buffer.from([0])]))],
      ['a last byte that is not a flag', deflateSync(Buffer.concat([raw.subarray(0, raw.length - 1), Buffer.from([7])]))],
    ];
    for (const [, bytes] of cases) await expect(decodePlateSnapshot(bytes, MAX_BYTES)).rejects.toThrow(PlateSnapshotFileError);
    // A file that inflates past the limit is refused as it inflates.
    await expect(decodePlateSnapshot(encoded, 100)).rejects.toThrow(PlateSnapshotFileError);
  });
});
