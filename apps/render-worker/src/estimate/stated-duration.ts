// The duration a container's header states, read in-process by byte ranges: an MP4/MOV movie header
// (mvhd) or a Matroska/WebM Info element. It gives the same figure ffprobe reports for those files
// (libavformat takes the duration from the same fields) without starting a process, which is what a
// quote's probe cost under load (decision 0090). Anything it does not fully understand is null, and
// the caller asks ffprobe: this is a fast path, never the only one. Every read is bounded, whatever
// sizes a hostile header claims.

// Reads up to `length` bytes from `offset`; fewer at the end of the file.
export type ReadRange = (offset: number, length: number) => Promise<Uint8Array>;

// Holds the ftyp, a Matroska file's Info and, for a fast-start MP4, usually the whole moov.
export const FIRST_READ_BYTES = 64 * 1024;
// A moov past that is read whole, up to this: about 30 KiB of sample tables a minute of 30 fps video
// with sound, so half an hour. A larger one is left to ffprobe: upload probes take no slot, and this
// bounds the memory a burst of them can ask for.
const MAX_MOOV_BYTES = 1024 * 1024;
const MAX_RANGE_READS = 8;
const MAX_ELEMENTS = 64;

export async function statedDuration(readRange: ReadRange): Promise<number | null> {
  const reader = new BoundedReader(readRange);
  const head = await reader.read(0, FIRST_READ_BYTES);
  if (head.length < 8) return null;
  try {
    if (isMatroska(head)) return await matroskaDuration(head, reader);
    if (isIsoMedia(head)) return await mp4Duration(head, reader);
  } catch (error) {
    if (error instanceof StatedDurationUnknown) return null;
    throw error;
  }
  return null;
}

class BoundedReader {
  private reads = 0;

  constructor(private readonly readRange: ReadRange) {}

  async read(offset: number, length: number): Promise<Uint8Array> {
    if (++this.reads > MAX_RANGE_READS) throw new StatedDurationUnknown();
    return this.readRange(offset, length);
  }

  // From the first read where it holds the range, else from the file.
  async slice(head: Uint8Array, offset: number, length: number): Promise<Uint8Array> {
    return offset + length <= head.length ? head.subarray(offset, offset + length) : this.read(offset, length);
  }
}

// A header this reader gives up on: the caller falls back to ffprobe.
class StatedDurationUnknown extends Error {}

// ---- MP4 / MOV (ISO base media) ----

const FIRST_BOX_TYPES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide']);
const MAX_TOP_LEVEL_BOXES = 32;

function isIsoMedia(head: Uint8Array): boolean {
  return FIRST_BOX_TYPES.has(fourCc(head, 4));
}

async function mp4Duration(head: Uint8Array, reader: BoundedReader): Promise<number | null> {
  let offset = 0;
  for (let index = 0; index < MAX_TOP_LEVEL_BOXES; index++) {
    const box = boxHeader(await reader.slice(head, offset, 16), 0, Number.MAX_SAFE_INTEGER - offset);
    if (!box) return null;
    // A fragmented file's moof comes after its moov; reaching one means the moov was not there.
    if (box.type === 'moof') return null;
    if (box.type === 'moov') {
      if (box.size > MAX_MOOV_BYTES) return null;
      const moov = await reader.slice(head, offset + box.headerSize, box.size - box.headerSize);
      return moov.length === box.size - box.headerSize ? movieDuration(moov) : null;
    }
    offset += box.size;
  }
  return null;
}

interface BoxHeader {
  type: string;
  size: number;
  headerSize: number;
}

// A box that runs to the end of the file (size 0) or past what holds it is not followed.
function boxHeader(bytes: Uint8Array, at: number, room: number): BoxHeader | null {
  if (bytes.length < at + 8) return null;
  const view = dataView(bytes);
  const type = fourCc(bytes, at + 4);
  let size = view.getUint32(at);
  let headerSize = 8;
  if (size === 1) {
    if (bytes.length < at + 16) return null;
    size = Number(view.getBigUint64(at + 8));
    headerSize = 16;
  }
  if (size < headerSize || size > room) return null;
  return { type, size, headerSize };
}

// The movie header's duration, for a file with tracks and no movie extends box (mvex marks a
// fragmented file, whose moov states no length for what follows).
function movieDuration(moov: Uint8Array): number | null {
  let header: Uint8Array | null = null;
  let tracks = 0;
  for (let at = 0; at < moov.length; ) {
    const box = boxHeader(moov, at, moov.length - at);
    if (!box) return null;
    if (box.type === 'mvex') return null;
    if (box.type === 'trak') tracks++;
    if (box.type === 'mvhd') header = moov.subarray(at + box.headerSize, at + box.size);
    at += box.size;
  }
  if (!header || tracks === 0) return null;
  const view = dataView(header);
  const version = header[0];
  let timescale: number;
  let duration: number;
  if (version === 0 && header.length >= 20) {
    timescale = view.getUint32(12);
    duration = view.getUint32(16);
    if (duration === 0xffffffff) return null;
  } else if (version === 1 && header.length >= 32) {
    timescale = view.getUint32(20);
    duration = Number(view.getBigUint64(24));
  } else {
    return null;
  }
  return timescale > 0 && duration > 0 ? duration / timescale : null;
}

// ---- Matroska / WebM (EBML) ----

const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const CLUSTER = 0x1f43b675;
const TIMESTAMP_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const DEFAULT_TIMESTAMP_SCALE = 1_000_000;
// Info holds a few short fields; a larger one is not read.
const MAX_INFO_BYTES = 64 * 1024;

function isMatroska(head: Uint8Array): boolean {
  return dataView(head).getUint32(0) === EBML_HEADER;
}

interface Element {
  id: number;
  // null: of unknown size (a live stream's Segment or Cluster).
  size: number | null;
  headerSize: number;
}

async function matroskaDuration(head: Uint8Array, reader: BoundedReader): Promise<number | null> {
  const ebml = element(head, 0);
  if (!ebml || ebml.size === null) return null;
  let at = ebml.headerSize + ebml.size;
  const segment = element(await reader.slice(head, at, 12), 0);
  if (!segment || segment.id !== SEGMENT) return null;
  at += segment.headerSize;
  // The Segment's first elements (SeekHead, Void, Info, Tracks...) until Info, or a Cluster: Info
  // always precedes the media in files ffmpeg and browsers write.
  for (let index = 0; index < MAX_ELEMENTS; index++) {
    const child = element(await reader.slice(head, at, 12), 0);
    if (!child || child.size === null || child.id === CLUSTER) return null;
    if (child.id === INFO) {
      if (child.size > MAX_INFO_BYTES) return null;
      const info = await reader.slice(head, at + child.headerSize, child.size);
      return info.length === child.size ? infoDuration(info) : null;
    }
    at += child.headerSize + child.size;
  }
  return null;
}

function infoDuration(info: Uint8Array): number | null {
  let scale = DEFAULT_TIMESTAMP_SCALE;
  let duration: number | null = null;
  for (let at = 0; at < info.length; ) {
    const field = element(info, at);
    if (!field || field.size === null || at + field.headerSize + field.size > info.length) return null;
    const value = info.subarray(at + field.headerSize, at + field.headerSize + field.size);
    if (field.id === TIMESTAMP_SCALE) scale = unsigned(value) ?? 0;
    if (field.id === DURATION) duration = float(value);
    at += field.headerSize + field.size;
  }
  if (duration === null || !Number.isFinite(duration) || duration <= 0 || scale <= 0) return null;
  return (duration * scale) / 1e9;
}

// An EBML element's ID (its length marker kept, as the specification writes IDs) and data size.
function element(bytes: Uint8Array, at: number): Element | null {
  const id = variableInteger(bytes, at, 4, false);
  if (!id) return null;
  const size = variableInteger(bytes, at + id.length, 8, true);
  if (!size) return null;
  return { id: id.value, size: size.unknown ? null : size.value, headerSize: id.length + size.length };
}

function variableInteger(bytes: Uint8Array, at: number, maxLength: number, stripMarker: boolean): { value: number; length: number; unknown: boolean } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > maxLength || at + length > bytes.length) return null;
  let value = stripMarker ? first & (0xff >> length) : first;
  let allOnes = value === 0xff >> length;
  for (let index = 1; index < length; index++) {
    const byte = bytes[at + index] as number;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  if (stripMarker && allOnes) return { value: 0, length, unknown: true };
  if (value > Number.MAX_SAFE_INTEGER) return null;
  return { value, length, unknown: false };
}

function unsigned(bytes: Uint8Array): number | null {
  if (bytes.length === 0 || bytes.length > 6) return null;
  return bytes.reduce((value, byte) => value * 256 + byte, 0);
}

function float(bytes: Uint8Array): number | null {
  if (bytes.length === 4) return dataView(bytes).getFloat32(0);
  if (bytes.length === 8) return dataView(bytes).getFloat64(0);
  return null;
}

// ---- bytes ----

function dataView(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function fourCc(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + 4));
}
