import { Readable, Writable } from 'node:stream';
import { readFrames, writeFrame } from './frame-stream';

async function collect(frames: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const all: Buffer[] = [];
  for await (const frame of frames) all.push(frame);
  return all;
}

// Bytes 0, 1, 2, ... cut into chunks of the given sizes.
function chunks(...sizes: number[]): Buffer[] {
  let next = 0;
  return sizes.map((size) => Buffer.from(Array.from({ length: size }, () => next++)));
}

describe('readFrames', () => {
  it('cuts chunks of any size into whole frames and drops a cut-off last frame', async () => {
    // 14 bytes in chunks of 3, 5, 2, 1 and 3: three 4-byte frames, 2 bytes left over.
    const frames = await collect(readFrames(Readable.from(chunks(3, 5, 2, 1, 3)), 4));
    expect(frames.map((frame) => [...frame])).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9, 10, 11],
    ]);
  });

  it('yields several frames out of one chunk', async () => {
    const frames = await collect(readFrames(Readable.from(chunks(9)), 3));
    expect(frames.map((frame) => [...frame])).toEqual([
      [0, 1, 2],
      [3, 4, 5],
      [6, 7, 8],
    ]);
  });

  it('gives every frame a fresh buffer, so a frame handed on is never overwritten', async () => {
    // All frames are kept until the end: a reused buffer would show the last frame three times.
    const frames = await collect(readFrames(Readable.from(chunks(4, 4, 4)), 4));
    expect(frames.map((frame) => [...frame])).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
      [8, 9, 10, 11],
    ]);
  });

  it('yields nothing from an empty stream or one shorter than a frame', async () => {
    expect(await collect(readFrames(Readable.from([]), 4))).toEqual([]);
    expect(await collect(readFrames(Readable.from(chunks(3)), 4))).toEqual([]);
  });
});

// A writable that takes one chunk and then holds its callback until `release` is called.
function heldWritable(): { stream: Writable; written: Buffer[]; release: () => void } {
  const written: Buffer[] = [];
  let callback: (() => void) | null = null;
  const stream = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk);
      callback = done;
    },
  });
  return { stream, written, release: () => callback?.() };
}

describe('writeFrame', () => {
  it('resolves at once while the stream has room', async () => {
    const written: Buffer[] = [];
    const stream = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk);
        done();
      },
    });
    await writeFrame(stream, Buffer.from([1, 2]), new AbortController().signal);
    expect(written).toEqual([Buffer.from([1, 2])]);
  });

  it("waits for 'drain' when the stream's buffer is full", async () => {
    const { stream, written, release } = heldWritable();
    let done = false;
    const writing = writeFrame(stream, Buffer.from([1, 2, 3]), new AbortController().signal).then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toHaveLength(1);
    expect(done).toBe(false);
    release();
    await writing;
    expect(done).toBe(true);
  });

  it('rejects with an AbortError when the signal fires while it waits', async () => {
    const { stream } = heldWritable();
    const controller = new AbortController();
    const writing = writeFrame(stream, Buffer.from([1, 2, 3]), controller.signal);
    controller.abort();
    await expect(writing).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects at once when the signal has already fired and the stream is full', async () => {
    const { stream } = heldWritable();
    const controller = new AbortController();
    controller.abort();
    await expect(writeFrame(stream, Buffer.from([1, 2, 3]), controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });
});
