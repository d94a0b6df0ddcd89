import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PngSequenceZip, PngSplitter, ResultTooLargeError } from './png-sequence-zip';
import { zipEntries } from './testing/matte-tools';

// A PNG's chunk structure around `dataBytes` bytes of picture data, all `value` (the splitter reads
// only the structure).
function fakePng(value: number, dataBytes: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4, value)]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', Buffer.alloc(13, value)),
    chunk('IDAT', Buffer.alloc(dataBytes, value)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'vj-png-zip-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('PngSplitter', () => {
  const pictures = [fakePng(1, 10), fakePng(2, 70_000), fakePng(3, 0)];
  const stream = Buffer.concat(pictures);

  it.each([1, 7, 4096, stream.length])('cuts PNGs written back to back into one buffer each, read %i bytes at a time', (size) => {
    const splitter = new PngSplitter();
    const found: Buffer[] = [];
    for (let at = 0; at < stream.length; at += size) found.push(...splitter.push(stream.subarray(at, at + size)));
    expect(found).toEqual(pictures);
    expect(splitter.partial).toBe(false);
  });

  it('says when a PNG is cut short, and refuses what is not a PNG', () => {
    const splitter = new PngSplitter();
    expect(splitter.push(stream.subarray(0, 100))).toEqual([pictures[0]]);
    expect(splitter.partial).toBe(true);
    expect(() => new PngSplitter().push(Buffer.from('RIFF....WAVEfmt '))).toThrow('something other than a PNG');
  });
});

describe('PngSequenceZip', () => {
  it("stores each picture as frames/<index>.png, then the sound as audio.wav, in a ZIP any reader opens", async () => {
    const pictures = Array.from({ length: 12 }, (_, i) => fakePng(i, 1000 * i));
    const zipPath = join(dir, 'frames.zip');
    const audioPath = join(dir, 'audio.wav');
    await writeFile(audioPath, Buffer.from('RIFF-and-the-rest'));
    const zip = new PngSequenceZip(zipPath, 1024 ** 2);
    await pipeline(Readable.from([Buffer.concat(pictures)]), zip.frames);
    await zip.finish(audioPath);
    expect(zip.frameCount).toBe(12);
    const entries = await zipEntries(zipPath);
    const names = pictures.map((_, i) => `frames/${String(i).padStart(6, '0')}.png`);
    expect([...entries.keys()]).toEqual([...names, 'audio.wav']);
    expect(names.map((name) => entries.get(name))).toEqual(pictures);
    expect(entries.get('audio.wav')?.toString()).toBe('RIFF-and-the-rest');
  });

  it('fails with ResultTooLargeError once the ZIP reaches its limit, and the file stops there', async () => {
    const zipPath = join(dir, 'frames.zip');
    const zip = new PngSequenceZip(zipPath, 64 * 1024);
    const pictures = Array.from({ length: 40 }, (_, i) => fakePng(i, 10_000));
    await pipeline(Readable.from(pictures), zip.frames);
    await expect(zip.finish(null)).rejects.toBeInstanceOf(ResultTooLargeError);
    zip.abort();
    expect((await stat(zipPath)).size).toBeLessThan(64 * 1024 + 20_000);
  });
});
