import type { Writable } from 'node:stream';
import { keyframeArgs, listKeyframes, TooManyFramesError } from './keyframes';
import { recordingRunner } from './testing/recording-runner';

const request = { ffprobePath: '/opt/ffprobe', inputPath: '/w/in', maxSeconds: 600, maxFrames: 10, timeoutMs: 1000 };

// ffprobe writing `lines` to the stdout it is given, in chunks that split lines.
function probing(lines: readonly string[]) {
  return recordingRunner(async (_command, options) => {
    const stdout = options.stdout as Writable;
    const text = lines.map((line) => `${line}\n`).join('');
    for (let at = 0; at < text.length; at += 5) stdout.write(text.slice(at, at + 5));
    await new Promise<void>((resolve, reject) => stdout.end(() => resolve()).once('error', reject));
    return '';
  });
}

describe('listKeyframes', () => {
  it("reads the first video stream's packets, fenced, a second past the limit, without decoding", () => {
    expect(keyframeArgs(request)).toEqual([
      '-v', 'error',
      '-protocol_whitelist', 'file', '-format_whitelist', 'mov,matroska,avi,flv,mpegts,mpeg,asf,ogg,mxf', '-max_pixels', '36458496',
      '-read_intervals', '%+601', '-select_streams', 'V:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', '-i', '/w/in',
    ]);
  });

  it('numbers the frames in presentation order, B-frames reordered, and lists the keyframes among them', async () => {
    const runner = probing(['0.000000,K_', '0.120000,__', '0.040000,__', '0.080000,__', '0.200000,K_', '0.160000,__', '0.240000,__']);
    expect(await listKeyframes(runner, request)).toEqual({ frames: 7, keyframes: [0, 5], times: [0, 0.04, 0.08, 0.12, 0.16, 0.2, 0.24] });
  });

  it('leaves out packets an edit list discards', async () => {
    const runner = probing(['-0.080000,KD', '-0.040000,_D', '0.000000,K_', '0.040000,__']);
    expect(await listKeyframes(runner, request)).toEqual({ frames: 2, keyframes: [0], times: [0, 0.04] });
  });

  it('takes decoding order where a packet has no timestamp', async () => {
    const runner = probing(['N/A,K_', '0.080000,__', '0.040000,K_']);
    expect(await listKeyframes(runner, request)).toEqual({ frames: 3, keyframes: [0, 2], times: null });
  });

  it('knows the frames by number only where two share a time', async () => {
    const runner = probing(['0.000000,K_', '0.040000,__', '0.040000,__']);
    expect(await listKeyframes(runner, request)).toMatchObject({ frames: 3, times: null });
  });

  it('refuses a file with more frames than allowed before holding them all', async () => {
    const runner = probing(Array.from({ length: 50 }, (_, i) => `${i},K_`));
    await expect(listKeyframes(runner, request)).rejects.toBeInstanceOf(TooManyFramesError);
  });
});
