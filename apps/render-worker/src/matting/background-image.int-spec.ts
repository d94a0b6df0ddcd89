import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { uploadObjectKey } from '@vj/contracts';
import { AllowList } from '@vj/egress';
import { startS3Server, type LocalS3Server } from '@vj/local-stack';
import { ObjectStorage } from '@vj/storage';
import { JobFailure } from '../errors/job-failure';
import { startLocalHttpServer, type LocalHttpServer } from '../input/testing/local-http-server';
import { MediaError } from '../media';
import { FFMPEG_PATH, FFPROBE_PATH } from '../media/testing/media-tools';
import { BackgroundImages } from './background-image';

// A PNG whose header claims `width` x `height` over a few bytes of data: a decoder that believed it
// would allocate gigabytes.
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(100))), chunk('IEND', Buffer.alloc(0))]);
}

const ACCOUNT = '6b1c3f0e-6a55-4c3e-9a36-8f2c1d4b5e01';
const OTHER_ACCOUNT = '0d9e8f7a-1b2c-4d3e-8f4a-5b6c7d8e9f00';
const uploadUrl = (id: number) => `upload://00000000-0000-4000-8000-${String(id).padStart(12, '0')}`;

describe('BackgroundImages', () => {
  let dir: string;
  let server: LocalHttpServer;
  let s3: LocalS3Server;
  let images: BackgroundImages;
  const bodies = new Map<string, Buffer>();
  const fetchUrl = async (url: string, accountId = ACCOUNT): Promise<unknown> => {
    const path = join(dir, `fetched-${url.replace(/\W/g, '')}`);
    return images.fetch(url, accountId, path, new AbortController().signal).then(() => path, (error: unknown) => error);
  };
  const fetchTo = (name: string): Promise<unknown> => fetchUrl(`${server.base}/${name}`);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vj-background-image-'));
    const made = (name: string, args: string[]): Buffer => {
      execFileSync(FFMPEG_PATH, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x180', '-frames:v', '1', ...args, join(dir, name)]);
      return readFileSync(join(dir, name));
    };
    bodies.set('/room.png', made('room.png', []));
    bodies.set('/room.jpg', made('room.jpg', []));
    bodies.set('/anim.gif', made('anim.gif', []));
    bodies.set('/bomb.png', pngClaiming(50_000, 50_000));
    bodies.set('/playlist.png', Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\nhttp://127.0.0.1/secret.png\n#EXT-X-ENDLIST\n`));
    bodies.set('/huge.png', Buffer.alloc(300 * 1024, 1));
    writeFileSync(join(dir, 'huge.png'), bodies.get('/huge.png') as Buffer);
    s3 = await startS3Server();
    const storage = new ObjectStorage({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'background-images', region: 'us-east-1' });
    await storage.ensureBucket();
    images = new BackgroundImages({ maxBytes: 256 * 1024, timeoutMs: 5_000, allowHosts: AllowList.parse('127.0.0.1'), storage, ffprobePath: FFPROBE_PATH });
    // The account's uploads 1 (a JPEG), 2 (a GIF), 3 (over the limit); upload 1 only under its own prefix.
    for (const [id, name, type] of [[1, 'room.jpg', 'image/jpeg'], [2, 'anim.gif', 'image/png'], [3, 'huge.png', 'image/png']] as const) {
      await storage.putFile(uploadObjectKey(ACCOUNT, uploadUrl(id).slice('upload://'.length)), join(dir, name), type);
    }
    server = await startLocalHttpServer((req, res) => {
      if (req.url === '/to-loopback') return void res.writeHead(302, { location: `http://127.0.0.2:${new URL(server.base).port}/room.png` }).end();
      const body = bodies.get(req.url ?? '');
      return void (body ? res.writeHead(200, { 'content-length': body.length }).end(body) : res.writeHead(404).end());
    });
  });
  afterAll(async () => {
    await server.close();
    await s3?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fetches a PNG or a JPEG and leaves it for the encoder', async () => {
    for (const name of ['room.png', 'room.jpg']) {
      const path = await fetchTo(name);
      expect(typeof path).toBe('string');
      expect(readFileSync(path as string).equals(bodies.get(`/${name}`) as Buffer)).toBe(true);
    }
  });

  it.each([
    ['a GIF (animated images are not taken)', 'anim.gif', 'it is not a PNG, JPEG or WebP image'],
    ['a playlist named .png', 'playlist.png', 'it is not a PNG, JPEG or WebP image'],
    ['a PNG whose header claims 50,000 x 50,000 pixels', 'bomb.png', 'is empty or larger than 8192 pixels a side'],
  ])('refuses %s with input_validation on background', async (_what, name, reason) => {
    const error = await fetchTo(name);
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({ code: 'input_validation', details: [{ type: 'invalid_background_image', field: 'background' }] });
    expect((error as MediaError).message).toContain(reason);
  });

  it('refuses an image over its size limit, and a redirect to another loopback address, naming the background', async () => {
    expect(await fetchTo('huge.png')).toMatchObject({ code: 'transload_failed', details: [{ type: 'too_large', field: 'background' }] });
    const redirected = await fetchTo('to-loopback');
    expect(redirected).toBeInstanceOf(JobFailure);
    expect(redirected).toMatchObject({ code: 'transload_failed', details: [{ type: 'blocked_address', field: 'background' }] });
    expect(existsSync(join(dir, 'fetched-toloopback'))).toBe(false);
  });

  it("reads an upload:// image from the job's account's own uploads", async () => {
    const path = await fetchUrl(uploadUrl(1));
    expect(typeof path).toBe('string');
    expect(readFileSync(path as string).equals(bodies.get('/room.jpg') as Buffer)).toBe(true);
  });

  it("refuses an upload:// image of another account, a missing one, one over the size limit and a GIF, naming the background", async () => {
    expect(await fetchUrl(uploadUrl(1), OTHER_ACCOUNT)).toMatchObject({ code: 'transload_failed', details: [{ type: 'upload_missing', field: 'background' }] });
    expect(await fetchUrl(uploadUrl(9))).toMatchObject({ code: 'transload_failed', details: [{ type: 'upload_missing', field: 'background' }] });
    expect(await fetchUrl(uploadUrl(3))).toMatchObject({ code: 'transload_failed', details: [{ type: 'too_large', field: 'background' }] });
    expect(await fetchUrl(uploadUrl(2))).toMatchObject({ code: 'input_validation', details: [{ type: 'invalid_background_image', field: 'background' }] });
  });
});
