import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MediaError } from './media-error';
import { probeArgs, probeMedia } from './probe';
import { ProcessFailedError } from './process-runner';
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
      { file: '/opt/ffprobe', args: ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-i', '/w/jobs/1/input'] },
    ]);
    expect(probeArgs('-x.mp4').slice(-2)).toEqual(['-i', '-x.mp4']);
  });

  it('puts input options right before -i', () => {
    expect(probeArgs('/w/in', ['-protocol_whitelist', 'file']).slice(-4)).toEqual(['-protocol_whitelist', 'file', '-i', '/w/in']);
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
