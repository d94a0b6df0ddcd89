import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measurePackets } from './measure-duration';
import { ProcessRunner } from './process-runner';

describe('measureDuration with the real ffmpeg', () => {
  let dir: string;
  const measure = (inputPath: string, maxSeconds = 60) => measurePackets(new ProcessRunner(), { ffmpegPath: 'ffmpeg', inputPath, maxSeconds, timeoutMs: 30_000 });
  const make = (name: string, args: string[]) => {
    const path = join(dir, name);
    execFileSync('ffmpeg', ['-loglevel', 'error', ...args, '-y', path]);
    return path;
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vj-measure-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the duration of the picture and sound packets', async () => {
    const path = make('clip.mp4', ['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=3', '-f', 'lavfi', '-i', 'sine=duration=3', '-c:v', 'libx264', '-c:a', 'aac', '-shortest']);
    expect(await measure(path)).toEqual({ seconds: expect.closeTo(3, 0), videoFrames: 75 });
  });

  it('stops counting a second past the limit', async () => {
    const path = make('long.mkv', ['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=20', '-c:v', 'libx264']);
    const { seconds } = await measure(path, 5);
    expect(seconds).toBeGreaterThan(5);
    expect(seconds).toBeLessThanOrEqual(6.1);
  });

  it('refuses a still image and a playlist with invalid_file, as the jobs do', async () => {
    const png = make('still.png', ['-f', 'lavfi', '-i', 'color=c=red:size=64x64', '-frames:v', '1']);
    await expect(measure(png)).rejects.toMatchObject({ code: 'invalid_file' });
    const playlist = join(dir, 'list.m3u8');
    writeFileSync(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n${join(dir, 'long.mkv')}\n#EXT-X-ENDLIST\n`);
    await expect(measure(playlist)).rejects.toMatchObject({ code: 'invalid_file' });
  });
});
