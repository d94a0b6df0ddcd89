import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PngSequenceZip, ResultTooLargeError } from './png-sequence-zip';
import { fakePng, zipEntries } from './testing/matte-tools';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'vj-png-zip-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

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
