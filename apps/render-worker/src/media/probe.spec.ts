import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MediaError } from './media-error';
import { probeArgs, probeMedia } from './probe';
import { ProcessFailedError, type CommandRunner } from './process-runner';
import { recordingRunner } from './testing/recording-runner';

const request = { ffprobePath: '/opt/ffprobe', inputPath: '/w/jobs/1/input', timeoutMs: 1000 };

describe('probeMedia', () => {
  it('runs ffprobe with JSON output of format and streams and parses it', async () => {
    const json = readFileSync(join(__dirname, '__fixtures__', 'probe', 'vp9-opus.json'), 'utf8');
    const runner = recordingRunner(async (_command, options) => {
      expect(options).toMatchObject({ timeoutMs: 1000, stdout: 'capture' });
      return json;
    });
    const probe = await probeMedia(runner, request);
    expect(probe.video?.codecName).toBe('vp9');
    expect(runner.commands).toEqual([
      {
        file: '/opt/ffprobe',
        args: [
          '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams',
          '-protocol_whitelist', 'file', '-format_whitelist', 'mov,matroska,avi,flv,mpegts,mpeg,asf,ogg,mxf', '-max_pixels', '36458496',
          '-i', '/w/jobs/1/input',
        ],
      },
    ]);
    expect(probeArgs('-x.mp4').slice(-2)).toEqual(['-i', '-x.mp4']);
  });

  it('fences the input right before -i, with only the protocols it is read through', () => {
    expect(probeArgs('http://s3/in', ['http', 'https', 'tcp', 'tls']).slice(-8)).toEqual([
      '-protocol_whitelist', 'http,https,tcp,tls',
      '-format_whitelist', 'mov,matroska,avi,flv,mpegts,mpeg,asf,ogg,mxf',
      '-max_pixels', '36458496',
      '-i', 'http://s3/in',
    ]);
  });

  it('fails with invalid_file naming the container when the fence refuses a playlist, and still_image for a picture file', async () => {
    const refused = (demuxer: string) =>
      recordingRunner(() =>
        Promise.reject(new ProcessFailedError('/opt/ffprobe', 1, null, `[${demuxer} @ 0x55f8959596c0] Format not on whitelist 'mov,matroska'\n/w/jobs/1/input: Invalid argument\n`)),
      );
    await expect(probeMedia(refused('hls'), request)).rejects.toMatchObject({
      code: 'invalid_file',
      message: 'The container is not an accepted video format',
      details: [{ type: 'unsupported_container', message: expect.stringContaining('"hls"') }],
    });
    await expect(probeMedia(refused('png_pipe'), request)).rejects.toMatchObject({
      code: 'invalid_file',
      message: 'The file is a still image, not a video',
      details: [{ type: 'still_image' }],
    });
  });

  it('fails with input_validation when a picture is over the decoder limit, whether ffprobe fails or describes it as 0x0', async () => {
    const stderr = '[vp9 @ 0x55a9] [IMGUTILS @ 0x7ffd] Picture size 16384x16384 exceeds specified max pixel count 36458496, see the documentation\n';
    const failing = recordingRunner(() => Promise.reject(new ProcessFailedError('/opt/ffprobe', 1, null, stderr)));
    await expect(probeMedia(failing, request)).rejects.toMatchObject({ code: 'input_validation', details: [{ type: 'video_too_large', field: 'video_url' }] });
    const json = readFileSync(join(__dirname, '__fixtures__', 'probe', 'vp9-opus.json'), 'utf8');
    const succeeding: CommandRunner = { run: () => Promise.resolve({ stdout: json, stderrTail: stderr }), pipe: () => Promise.reject(new Error('not used')) };
    await expect(probeMedia(succeeding, request)).rejects.toMatchObject({ code: 'input_validation', details: [{ type: 'video_too_large' }] });
  });

  it('fails with invalid_file saying why when ffprobe cannot read the file', async () => {
    const stderr = '[mov,mp4,m4a,3gp,3g2,mj2 @ 0x5564d88dc880] moov atom not found\n/w/jobs/1/input: Invalid data found when processing input\n';
    const runner = recordingRunner(() => Promise.reject(new ProcessFailedError('/opt/ffprobe', 1, null, stderr)));
    const error = await probeMedia(runner, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({
      code: 'invalid_file',
      details: [{ type: 'unreadable_file', message: 'input: Invalid data found when processing input' }],
    });
  });

  it('lets timeouts and other failures through unchanged', async () => {
    const timeout = new MediaError('timeout', 'slow');
    await expect(probeMedia(recordingRunner(() => Promise.reject(timeout)), request)).rejects.toBe(timeout);
    const missing = Object.assign(new Error('spawn /opt/ffprobe ENOENT'), { code: 'ENOENT' });
    await expect(probeMedia(recordingRunner(() => Promise.reject(missing)), request)).rejects.toBe(missing);
  });
});
