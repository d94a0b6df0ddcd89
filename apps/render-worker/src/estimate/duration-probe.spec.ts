import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { ProbeInputRequestV1 } from '@vj/contracts';
import { AllowList } from '@vj/egress';
import { ProcessFailedError, type CommandRunner } from '../media';
import { DurationProbe, type DurationProbeSettings } from './duration-probe';
import { decoderMaxPixels, MAX_DECODED_PICTURE } from '../media/input-fence';
import { recordingRunner } from '../media/testing/recording-runner';

const FAST_START_MP4 = readFileSync(join(__dirname, '..', 'media', '__fixtures__', 'probe', 'h264-aac-cover-art.json'), 'utf8');
const PRESIGNED = 'http://s3.internal:9000/video-jobs/uploads/a1/u1?X-Amz-Signature=abc';

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
  const probeWith = (commands: CommandRunner, limits: Partial<Pick<DurationProbeSettings, 'timeoutMs' | 'concurrency'>> = {}) =>
    new DurationProbe(storage, commands, {
      timeoutMs: 2500,
      maxBytes: 1024,
      concurrency: 2,
      allowHosts: AllowList.empty,
      workDir,
      ffprobePath: '/opt/ffprobe',
      resolve: async () => [{ address: '10.0.0.5', family: 4 }],
      ...limits,
    });

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

  it('answers null when no probe slot frees up within the time limit', async () => {
    let finish!: () => void;
    const ffprobe = recordingRunner(() => new Promise((resolve) => (finish = () => resolve(FAST_START_MP4))));
    const probe = probeWith(ffprobe, { concurrency: 1, timeoutMs: 100 });
    const first = probe.reply(upload());
    await expect(probe.reply(upload())).resolves.toEqual({ duration_seconds: null });
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
