import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { VideoInputV1 } from '@vj/contracts';
import { startNatsServer, startS3Server, type LocalNatsServer, type LocalS3Server } from '@vj/local-stack';
import { MediaRpcClient, serveMediaRpc, type RpcService } from '@vj/messaging';
import { ObjectStorage } from '@vj/storage';
import { connect, type NatsConnection } from 'nats';
import { AllowList, resolveWithSystemDns, type ResolveHost } from '@vj/egress';
import { startLocalHttpServer, type LocalHttpServer } from '../input/testing/local-http-server';
import { ProcessRunner } from '../media';
import { durationOf, FFPROBE_PATH, makeTestVideo } from '../media/testing/media-tools';
import { DurationProbe } from './duration-probe';

const LIMIT_MS = 1500;
// Small enough that every generated video is larger: a URL input is probed from its first bytes only.
const MAX_BYTES = 96 * 1024;
const PRIVATE_NAME = 'videos.private.test';

type Requests = { path: string; range: string | undefined }[];

// Serves files with byte ranges, as CDNs and object stores do.
function sendFile(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
  if (!range) return void res.writeHead(200, { 'content-length': body.length }).end(body);
  const start = Number(range[1]);
  const end = Math.min(range[2] ? Number(range[2]) : body.length - 1, body.length - 1);
  res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${body.length}`, 'content-length': end - start + 1 }).end(body.subarray(start, end + 1));
}

describe('vj.rpc.media.v1.probe against nats-server, S3, HTTP servers and ffprobe', () => {
  let nats: LocalNatsServer;
  let s3: LocalS3Server;
  let nc: NatsConnection;
  let service: RpcService;
  let client: MediaRpcClient;
  let storage: ObjectStorage;
  let dir: string;
  let workDir: string;
  let media: LocalHttpServer;
  let privateHost: LocalHttpServer;
  const files: Record<string, string> = {};
  const requests: Requests = [];
  const privateRequests: Requests = [];

  // Only the test name resolves through our table; everything else through the system's DNS.
  const resolve: ResolveHost = async (host) => (host === PRIVATE_NAME ? [{ address: '127.0.0.2', family: 4 }] : resolveWithSystemDns(host));

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dir = mkdtempSync(join(tmpdir(), 'vj-duration-probe-int-'));
    workDir = join(dir, 'work');
    files.moovAtEnd = join(dir, 'moov-at-end.mp4');
    files.fastStart = join(dir, 'fast-start.mp4');
    files.fragmented = join(dir, 'fragmented.mp4');
    files.webm = join(dir, 'talk.webm');
    files.text = join(dir, 'notes.txt');
    await Promise.all([
      makeTestVideo(files.moovAtEnd, { codec: 'h264', seconds: 3, output: ['-c:a', 'aac'] }),
      makeTestVideo(files.fastStart, { codec: 'h264', seconds: 4, output: ['-c:a', 'aac', '-movflags', '+faststart'] }),
      makeTestVideo(files.fragmented, { codec: 'h264', seconds: 4, output: ['-g', '25', '-c:a', 'aac', '-movflags', 'frag_keyframe+empty_moov'] }),
      makeTestVideo(files.webm, { codec: 'vp9', seconds: 3, output: ['-c:a', 'libopus'] }),
    ]);
    writeFileSync(files.text, 'not a video\n'.repeat(1000));
    for (const path of [files.fastStart, files.fragmented, files.webm]) expect(statSync(path).size).toBeGreaterThan(MAX_BYTES);
    mkdirSync(workDir);

    media = await startLocalHttpServer((req, res) => {
      const path = req.url ?? '';
      requests.push({ path, range: req.headers.range });
      if (path === '/never') return; // accepts the request, never answers
      if (path === '/to-private') return void res.writeHead(302, { location: `${privateHost.base.replace('127.0.0.2', PRIVATE_NAME)}/fast-start.mp4` }).end();
      const name = { '/fast-start.mp4': 'fastStart', '/fragmented.mp4': 'fragmented', '/talk.webm': 'webm', '/notes.txt': 'text' }[path];
      if (!name) return void res.writeHead(404).end();
      sendFile(req, res, readFileSync(files[name]));
    });
    privateHost = await startLocalHttpServer((req, res) => {
      privateRequests.push({ path: req.url ?? '', range: req.headers.range });
      sendFile(req, res, readFileSync(files.fastStart));
    }, '127.0.0.2');

    [nats, s3] = await Promise.all([startNatsServer(), startS3Server()]);
    storage = new ObjectStorage({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'probe-int', region: 'us-east-1' });
    await storage.ensureBucket();
    nc = await connect({ servers: nats.url });
    const probe = new DurationProbe(storage, new ProcessRunner(), {
      timeoutMs: LIMIT_MS,
      maxBytes: MAX_BYTES,
      concurrency: 2,
      allowHosts: AllowList.parse('127.0.0.1'),
      workDir,
      ffprobePath: FFPROBE_PATH,
      resolve,
    });
    // The same wiring as messaging/media-rpc.lifecycle.ts.
    service = serveMediaRpc(nc, { probe: (request) => probe.reply(request) });
    client = new MediaRpcClient(nc, 10_000);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    await nc?.close();
    await Promise.all([media?.close(), privateHost?.close()]);
    await Promise.all([nats?.stop(), s3?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => {
    requests.length = 0;
    privateRequests.length = 0;
  });

  const probe = async (input: VideoInputV1) => (await client.call('probe', { version: 1, input })).duration_seconds;
  const url = (path: string): VideoInputV1 => ({ kind: 'url', url: `${media.base}${path}` });
  async function upload(key: string, path: string, contentType = 'video/mp4'): Promise<VideoInputV1> {
    await storage.putFile(`uploads/acct-1/${key}`, path, contentType);
    return { kind: 'upload', upload_id: key, object_key: `uploads/acct-1/${key}` };
  }

  it("answers an upload's duration, read through a presigned URL even with the moov at the end", async () => {
    const seconds = await probe(await upload('moov-at-end', files.moovAtEnd));
    expect(seconds).not.toBeNull();
    expect(Math.abs((seconds as number) - (await durationOf(files.moovAtEnd)))).toBeLessThan(0.05);
  });

  it('answers null for an upload that is not a video, or has no content yet', async () => {
    expect(await probe(await upload('notes', files.text, 'text/plain'))).toBeNull();
    expect(await probe({ kind: 'upload', upload_id: 'never-put', object_key: 'uploads/acct-1/never-put' })).toBeNull();
  });

  it('answers the duration of a fast-start MP4 URL from its first bytes, asked for with a Range header', async () => {
    const seconds = await probe(url('/fast-start.mp4'));
    expect(Math.abs((seconds as number) - (await durationOf(files.fastStart)))).toBeLessThan(0.05);
    expect(requests).toEqual([{ path: '/fast-start.mp4', range: `bytes=0-${MAX_BYTES - 1}` }]);
  });

  it('answers the duration of a WebM URL from its first bytes', async () => {
    const seconds = await probe(url('/talk.webm'));
    expect(Math.abs((seconds as number) - (await durationOf(files.webm)))).toBeLessThan(0.05);
  });

  it('answers null for the first bytes of a fragmented MP4, whose duration they do not tell', async () => {
    expect(await probe(url('/fragmented.mp4'))).toBeNull();
  });

  it('answers null for a URL whose host resolves to a private address not in the allow list, without connecting', async () => {
    expect(await probe({ kind: 'url', url: `${privateHost.base.replace('127.0.0.2', PRIVATE_NAME)}/fast-start.mp4` })).toBeNull();
    expect(await probe(url('/to-private'))).toBeNull();
    expect(requests.map((r) => r.path)).toEqual(['/to-private']);
    expect(privateRequests).toEqual([]);
  });

  it('answers null within the limit for a server that never answers', async () => {
    const started = Date.now();
    expect(await probe(url('/never'))).toBeNull();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(LIMIT_MS - 50);
    expect(elapsed).toBeLessThan(LIMIT_MS + 750);
  });

  it('answers null for a URL that is not a video, refused, missing or invalid', async () => {
    expect(await probe(url('/notes.txt'))).toBeNull();
    expect(await probe({ kind: 'url', url: 'http://127.0.0.1:1/video.mp4' })).toBeNull();
    expect(await probe(url('/missing.mp4'))).toBeNull();
    expect(await probe({ kind: 'url', url: 'not a url' })).toBeNull();
  });

  it('never lets ffprobe follow a playlist inside an upload to another server', async () => {
    const playlist = join(dir, 'playlist.m3u8');
    writeFileSync(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${media.base}/segment.ts\n#EXT-X-ENDLIST\n`);
    expect(await probe(await upload('playlist', playlist, 'application/vnd.apple.mpegurl'))).toBeNull();
    expect(requests).toEqual([]);
  });

  it('leaves no temporary file behind', () => {
    expect(readdirSync(workDir)).toEqual([]);
  });
});
