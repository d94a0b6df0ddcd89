import { promisify } from 'node:util';
import { deflate, inflate } from 'node:zlib';
import type { PlateSnapshot } from './background-plate';

// A plate snapshot as bytes, for the bucket between the worker that runs the plate pass and the ones
// that run the segments (decision 0100). The planes keep their exact values, so a segment begins from
// what the pass learned to the bit. Layout, deflated: MAGIC, then each plane of PLANES as its length
// in elements (u32 LE) and its bytes as the host holds them (little-endian on every platform the worker
// ships for), then `empty` as one byte.

const MAGIC = Buffer.from('VJPLATE1');
const PLANES = ['luma', 'chromaU', 'chromaV', 'referenceLuma', 'seen', 'near', 'previousEntering'] as const;
type Plane = (typeof PLANES)[number];
const FLOAT_PLANES: ReadonlySet<Plane> = new Set(['luma', 'chromaU', 'chromaV', 'referenceLuma']);
// Fast over small: a 1080p plate is about 15 MB of planes, written once per segment.
const DEFLATE_LEVEL = 1;

export class PlateSnapshotFileError extends Error {
  constructor(message: string) {
    super(`plate snapshot: ${message}`);
    this.name = 'PlateSnapshotFileError';
  }
}

export async function encodePlateSnapshot(snapshot: PlateSnapshot): Promise<Buffer> {
  const parts: Buffer[] = [MAGIC];
  for (const plane of PLANES) {
    const values = snapshot[plane];
    const length = Buffer.alloc(4);
    length.writeUInt32LE(values.length);
    parts.push(length, Buffer.from(values.buffer, values.byteOffset, values.byteLength));
  }
  parts.push(Buffer.from([snapshot.empty ? 1 : 0]));
  return promisify(deflate)(Buffer.concat(parts), { level: DEFLATE_LEVEL });
}

// `maxBytes` bounds what the file may inflate to: a plate of the largest picture the job allows.
export async function decodePlateSnapshot(file: Buffer, maxBytes: number): Promise<PlateSnapshot> {
  const bytes = await promisify(inflate)(file, { maxOutputLength: maxBytes }).catch((error: unknown) => {
    throw new PlateSnapshotFileError(`not a deflated plate of at most ${maxBytes} bytes (${error instanceof Error ? error.message : String(error)})`);
  });
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new PlateSnapshotFileError('not a plate snapshot of this version');
  let at = MAGIC.length;
  const planes = {} as Record<Plane, Float32Array | Uint8Array>;
  for (const plane of PLANES) {
    if (at + 4 > bytes.length) throw new PlateSnapshotFileError(`cut short before ${plane}`);
    const length = bytes.readUInt32LE(at);
    const byteLength = length * (FLOAT_PLANES.has(plane) ? 4 : 1);
    at += 4;
    if (at + byteLength > bytes.length) throw new PlateSnapshotFileError(`cut short in ${plane}`);
    // Copied: each plane owns its memory, so the inflated whole is freed once read.
    const copy = bytes.buffer.slice(bytes.byteOffset + at, bytes.byteOffset + at + byteLength);
    planes[plane] = FLOAT_PLANES.has(plane) ? new Float32Array(copy) : new Uint8Array(copy);
    at += byteLength;
  }
  if (at + 1 !== bytes.length) throw new PlateSnapshotFileError(at + 1 > bytes.length ? 'cut short before its last byte' : 'bytes past its end');
  const empty = bytes[at];
  if (empty !== 0 && empty !== 1) throw new PlateSnapshotFileError('its last byte is not 0 or 1');
  return {
    luma: planes.luma as Float32Array,
    chromaU: planes.chromaU as Float32Array,
    chromaV: planes.chromaV as Float32Array,
    referenceLuma: planes.referenceLuma as Float32Array,
    seen: planes.seen as Uint8Array,
    near: planes.near as Uint8Array,
    previousEntering: planes.previousEntering as Uint8Array,
    empty: empty === 1,
  };
}
