import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import { AllowList } from '@vj/egress';
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

describe('BackgroundImages', () => {
  let dir: string;
  let server: LocalHttpServer;
  const bodies = new Map<string, Buffer>();
  const images = new BackgroundImages({ maxBytes: 256 * 1024, timeoutMs: 5_000, allowHosts: AllowList.parse('127.0.0.1'), ffprobePath: FFPROBE_PATH });
  const fetchTo = async (name: string): Promise<unknown> => {
    const path = join(dir, `fetched-${name.replace(/\W/g, '')}`);
    return images.fetch(`${server.base}/${name}`, path, new AbortController().signal).then(() => path, (error: unknown) => error);
  };

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
    server = await startLocalHttpServer((req, res) => {
      if (req.url === '/to-loopback') return void res.writeHead(302, { location: `http://127.0.0.2:${new URL(server.base).port}/room.png` }).end();
      const body = bodies.get(req.url ?? '');
      return void (body ? res.writeHead(200, { 'content-length': body.length }).end(body) : res.writeHead(404).end());
    });
  });
  afterAll(async () => {
    await server.close();
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
});
