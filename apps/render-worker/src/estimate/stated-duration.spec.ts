import { statedDuration, type ReadRange } from './stated-duration';

function box(type: string, ...children: Uint8Array[]): Uint8Array {
  const body = concat(...children);
  const out = new Uint8Array(8 + body.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(Buffer.from(type, 'latin1'), 4);
  out.set(body, 8);
  return out;
}

function movieHeader(timescale: number, duration: number): Uint8Array {
  const body = new Uint8Array(100);
  const view = new DataView(body.buffer);
  view.setUint32(12, timescale);
  view.setUint32(16, duration);
  return box('mvhd', body);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(parts.flatMap((part) => [...part]));
}

// A file in memory that counts the reads made of it.
function inMemory(bytes: Uint8Array): ReadRange & { reads: number } {
  const read = Object.assign(
    async (offset: number, length: number) => {
      read.reads++;
      return bytes.subarray(offset, offset + length);
    },
    { reads: 0 },
  );
  return read;
}

const ftyp = box('ftyp', Buffer.from('isom\0\0\0\0isom', 'latin1'));

describe('statedDuration', () => {
  it("reads an MP4 movie header's duration", async () => {
    expect(await statedDuration(inMemory(concat(ftyp, box('moov', movieHeader(1000, 12_500), box('trak')))))).toBe(12.5);
  });

  it('leaves a moov without tracks, with a movie extends box or with an unknown duration to ffprobe', async () => {
    expect(await statedDuration(inMemory(concat(ftyp, box('moov', movieHeader(1000, 12_500)))))).toBeNull();
    expect(await statedDuration(inMemory(concat(ftyp, box('moov', movieHeader(1000, 12_500), box('trak'), box('mvex')))))).toBeNull();
    expect(await statedDuration(inMemory(concat(ftyp, box('moov', movieHeader(1000, 0xffffffff), box('trak')))))).toBeNull();
    expect(await statedDuration(inMemory(concat(ftyp, box('moov', movieHeader(0, 5), box('trak')))))).toBeNull();
  });

  it('does not follow boxes whose sizes lie', async () => {
    const lying = concat(ftyp, box('moov', movieHeader(1000, 5000), box('trak')));
    // The moov claims 4 GiB.
    new DataView(lying.buffer).setUint32(ftyp.length, 0xfffffff0);
    expect(await statedDuration(inMemory(lying))).toBeNull();
    // A child box larger than its moov.
    const child = concat(ftyp, box('moov', movieHeader(1000, 5000), box('trak')));
    new DataView(child.buffer).setUint32(ftyp.length + 8, 10_000);
    expect(await statedDuration(inMemory(child))).toBeNull();
    // Sizes under a header's own length.
    const tiny = concat(ftyp, box('moov', movieHeader(1000, 5000), box('trak')));
    new DataView(tiny.buffer).setUint32(ftyp.length, 4);
    expect(await statedDuration(inMemory(tiny))).toBeNull();
  });

  it('makes a bounded number of reads however many boxes come before the moov', async () => {
    const hugeFree = new Uint8Array(16);
    const view = new DataView(hugeFree.buffer);
    view.setUint32(0, 1);
    hugeFree.set(Buffer.from('free', 'latin1'), 4);
    // Each 64-bit-sized box says it is 1 MiB, so every next header is a read of its own.
    view.setBigUint64(8, BigInt(1024 * 1024));
    const file = new Uint8Array(40 * 1024 * 1024);
    file.set(ftyp, 0);
    for (let at = ftyp.length; at + 16 < file.length; at += 1024 * 1024) file.set(hugeFree, at);
    const source = inMemory(file);
    expect(await statedDuration(source)).toBeNull();
    expect(source.reads).toBeLessThanOrEqual(8);
  });

  it('answers null for what is neither MP4 nor Matroska, or too short to tell', async () => {
    expect(await statedDuration(inMemory(Buffer.from('#EXTM3U\n#EXT-X-ENDLIST\n')))).toBeNull();
    expect(await statedDuration(inMemory(new Uint8Array(3)))).toBeNull();
    expect(await statedDuration(inMemory(new Uint8Array(0)))).toBeNull();
  });

  it("reads a Matroska Info's duration with its timestamp scale, and refuses an unknown-size or overlong one", async () => {
    const info = (fields: number[]) => Uint8Array.from([0x15, 0x49, 0xa9, 0x66, 0x80 | fields.length, ...fields]);
    const matroska = (infoBytes: Uint8Array) => Uint8Array.from([0x1a, 0x45, 0xdf, 0xa3, 0x80, 0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, ...infoBytes]);
    const duration = new Uint8Array(8);
    new DataView(duration.buffer).setFloat64(0, 2500);
    // TimestampScale 1 ms in nanoseconds (0x0f4240), Duration 2500 ticks.
    const fields = [0x2a, 0xd7, 0xb1, 0x83, 0x0f, 0x42, 0x40, 0x44, 0x89, 0x88, ...duration];
    expect(await statedDuration(inMemory(matroska(info(fields))))).toBe(2.5);
    // Info of unknown size.
    expect(await statedDuration(inMemory(matroska(Uint8Array.from([0x15, 0x49, 0xa9, 0x66, 0xff, ...fields]))))).toBeNull();
    // A Duration field that runs past its Info.
    expect(await statedDuration(inMemory(matroska(info([0x44, 0x89, 0x88, 0, 0]))))).toBeNull();
  });
});
