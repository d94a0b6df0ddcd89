import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { ProbeInputRequestV1 } from '@vj/contracts';
import { AllowList } from '@vj/egress';
import { ProcessFailedError, type CommandRunner } from '../media';
import type { ReadRange } from './stated-duration';
import { DurationProbe, type DurationProbeSettings } from './duration-probe';
import { decoderMaxPixels, MAX_DECODED_PICTURE } from '../media/input-fence';
import { recordingRunner } from '../media/testing/recording-runner';

const FAST_START_MP4 = readFileSync(join(__dirname, '..', 'media', '__fixtures__', 'probe', 'h264-aac-cover-art.json'), 'utf8');
const PRESIGNED = 'http://s3.internal:9000/video-jobs/uploads/a1/u1?X-Amz-Signature=abc';
// An object whose first bytes are no container the in-process header reader knows: ffprobe decides.
const headerless = (): ReadRange => async () => new Uint8Array(0);

const upload = (objectKey = 'uploads/a1/u1'): ProbeInputRequestV1 => ({ version: 1, input: { kind: 'upload', upload_id: 'u1', object_key: objectKey } });

describe('DurationProbe', () => {
  let workDir: string;
  let debug: jest.SpyInstance;
  let warn: jest.SpyInstance;
  const presigned: string[] = [];
  const storage = {
    async presignGet(key: string) {
      presigned.push(key);
      return PRESIGNED;
    },
  };
  const probeWith = (commands: CommandRunner, limits: Partial<Pick<DurationProbeSettings, 'timeoutMs' | 'concurrency'>> = {}, objectRanges: (url: string) => ReadRange = headerless) =>
    new DurationProbe(storage, commands, {
      timeoutMs: 2500,
      maxBytes: 1024,
      concurrency: 2,
      allowHosts: AllowList.empty,
      workDir,
      ffprobePath: '/opt/ffprobe',
      resolve: async () => [{ address: '10.0.0.5', family: 4 }],
      ...limits,
    }, objectRanges);

  beforeEach(() => {
    presigned.length = 0;
    workDir = mkdtempSync(join(tmpdir(), 'vj-duration-probe-'));
    debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('probes an upload through a presigned URL with only HTTP protocols and plain containers allowed', async () => {
    const ffprobe = recordingRunner(async (_command, options) => {
      expect(options.timeoutMs).toBeGreaterThan(2000);
      expect(options.timeoutMs).toBeLessThanOrEqual(2500);
      return FAST_START_MP4;
    });
    await expect(probeWith(ffprobe).reply(upload())).resolves.toEqual({ duration_seconds: 2 });
    expect(presigned).toEqual(['uploads/a1/u1']);
    expect(ffprobe.commands[0].file).toBe('/opt/ffprobe');
    expect(ffprobe.commands[0].args.slice(-8)).toEqual([
      '-protocol_whitelist',
      'http,https,tcp,tls',
      '-format_whitelist',
      'mov,matroska,avi,flv,mpegts,mpeg,asf,ogg,mxf',
      '-max_pixels',
      String(decoderMaxPixels(MAX_DECODED_PICTURE)),
      '-i',
      PRESIGNED,
    ]);
  });

  it('answers null when ffprobe cannot read the upload, saying why at debug level without a stack', async () => {
    const ffprobe = recordingRunner(() => Promise.reject(new ProcessFailedError('/opt/ffprobe', 1, null, 'Invalid data found when processing input')));
    await expect(probeWith(ffprobe).reply(upload())).resolves.toEqual({ duration_seconds: null });
    expect(debug).toHaveBeenCalledWith('no duration for upload u1: The file is not a readable video: Invalid data found when processing input');
    expect(warn).not.toHaveBeenCalled();
  });

  it('answers null instead of throwing on its own failures, such as a missing ffprobe, and warns with the stack', async () => {
    const ffprobe = recordingRunner(() => Promise.reject(Object.assign(new Error('spawn /opt/ffprobe ENOENT'), { code: 'ENOENT' })));
    await expect(probeWith(ffprobe).reply(upload())).resolves.toEqual({ duration_seconds: null });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^no duration for upload u1: Error: spawn \/opt\/ffprobe ENOENT\n\s+at /));
  });

  it('runs at most its concurrency of ffprobes at once; the rest wait their turn', async () => {
    let running = 0;
    let most = 0;
    const ffprobe = recordingRunner(async () => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running--;
      return FAST_START_MP4;
    });
    const probe = probeWith(ffprobe, { concurrency: 2 });
    const replies = await Promise.all(Array.from({ length: 6 }, () => probe.reply(upload())));
    expect(replies).toEqual(Array(6).fill({ duration_seconds: 2 }));
    expect(most).toBe(2);
  });

  it("answers an upload whose header states its duration without ffprobe, even with every probe slot taken", async () => {
    let finish!: () => void;
    const ffprobe = recordingRunner(() => new Promise((resolve) => (finish = () => resolve(FAST_START_MP4))));
    // An MP4 whose moov's movie header says 6,000 units at 1,000 a second, with one track.
    const mvhd = Buffer.alloc(108);
    mvhd.writeUInt32BE(108, 0);
    mvhd.write('mvhd', 4, 'latin1');
    mvhd.writeUInt32BE(1000, 20);
    mvhd.writeUInt32BE(6000, 24);
    const trak = Buffer.from([0, 0, 0, 8, 0x74, 0x72, 0x61, 0x6b]);
    const moov = Buffer.concat([Buffer.from([0, 0, 0, 8 + mvhd.length + trak.length]), Buffer.from('moov', 'latin1'), mvhd, trak]);
    moov.writeUInt32BE(moov.length, 0);
    const file = Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypisom\0\0\0\0', 'latin1'), moov]);
    // The first upload's header is unknown: its ffprobe takes the only slot and hangs.
    let opened = 0;
    const ranges = () => (opened++ === 0 ? async () => new Uint8Array(0) : async (offset: number, length: number) => new Uint8Array(file.subarray(offset, offset + length)));
    const probe = probeWith(ffprobe, { concurrency: 1 }, ranges);
    const busy = probe.reply(upload());
    await new Promise((resolve) => setImmediate(resolve));
    expect(ffprobe.commands).toHaveLength(1);
    await expect(probe.reply(upload())).resolves.toEqual({ duration_seconds: 6 });
    expect(ffprobe.commands).toHaveLength(1);
    finish();
    await expect(busy).resolves.toEqual({ duration_seconds: 2 });
  });

  it('answers null, timed out, when no probe slot frees up within the time limit', async () => {
    let finish!: () => void;
    const ffprobe = recordingRunner(() => new Promise((resolve) => (finish = () => resolve(FAST_START_MP4))));
    const probe = probeWith(ffprobe, { concurrency: 1, timeoutMs: 100 });
    const first = probe.reply(upload());
    await expect(probe.reply(upload())).resolves.toEqual({ duration_seconds: null, timed_out: true });
    expect(debug).toHaveBeenCalledWith('no duration for upload u1: the time limit passed');
    expect(ffprobe.commands).toHaveLength(1);
    finish();
    await expect(first).resolves.toEqual({ duration_seconds: 2 });
  });

  it('answers null to a request without a usable input', async () => {
    const ffprobe = recordingRunner(async () => FAST_START_MP4);
    const malformed = [{ version: 1 }, { version: 1, input: { kind: 'ftp', url: 'ftp://x' } }, { version: 1, input: { kind: 'upload' } }];
    for (const request of malformed) {
      await expect(probeWith(ffprobe).reply(request as unknown as ProbeInputRequestV1)).resolves.toEqual({ duration_seconds: null });
    }
    expect(ffprobe.commands).toEqual([]);
  });

  it('answers null for a URL whose host resolves to a private address, without running ffprobe or leaving files', async () => {
    const ffprobe = recordingRunner(async () => FAST_START_MP4);
    const request: ProbeInputRequestV1 = { version: 1, input: { kind: 'url', url: 'https://videos.example.com/talk.mp4' } };
    await expect(probeWith(ffprobe).reply(request)).resolves.toEqual({ duration_seconds: null });
    expect(ffprobe.commands).toEqual([]);
    expect(readdirSync(workDir)).toEqual([]);
    expect(debug).toHaveBeenCalledWith(expect.stringContaining('videos.example.com resolves to 10.0.0.5'));
  });
});
