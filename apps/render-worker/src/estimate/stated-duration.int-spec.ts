import { mkdtempSync, rmSync, truncateSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { durationOf, ffmpeg, makeTestVideo } from '../media/testing/media-tools';
import { fileRanges } from './range-readers';
import { statedDuration } from './stated-duration';

// Every container the header reader answers for must give ffprobe's own figure; what it cannot read
// it must leave to ffprobe (null), never guess.
describe('statedDuration against ffprobe on files ffmpeg writes', () => {
  let dir: string;
  const file = (name: string) => join(dir, name);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vj-stated-duration-'));
    await Promise.all([
      makeTestVideo(file('fast-start.mp4'), { codec: 'h264', seconds: 3, output: ['-movflags', '+faststart'] }),
      makeTestVideo(file('moov-at-end.mp4'), { codec: 'h264', seconds: 3, output: [] }),
      makeTestVideo(file('hevc.mp4'), { codec: 'hevc', seconds: 2, output: ['-tag:v', 'hvc1'] }),
      makeTestVideo(file('mpeg4.mov'), { codec: 'mpeg4', seconds: 2, output: [] }),
      makeTestVideo(file('vp9.webm'), { codec: 'vp9', seconds: 2, output: ['-c:a', 'libopus'] }),
      makeTestVideo(file('h264.mkv'), { codec: 'h264', seconds: 2, output: [] }),
      makeTestVideo(file('fragmented.mp4'), { codec: 'h264', seconds: 2, output: ['-movflags', 'frag_keyframe+empty_moov'] }),
      makeTestVideo(file('silent.mp4'), { codec: 'h264', seconds: 2, audio: 'none', output: [] }),
      // Audio that outlasts the picture: the file's duration is the longer one.
      ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=1', '-f', 'lavfi', '-i', 'sine=duration=2.5', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', file('long-audio.mp4')]),
      // A live WebM (written to a pipe) states no duration.
      ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=1', '-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-f', 'webm', '-live', '1', file('live.webm')]),
    ]);
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['fast-start.mp4', 'moov-at-end.mp4', 'hevc.mp4', 'mpeg4.mov', 'vp9.webm', 'h264.mkv', 'silent.mp4', 'long-audio.mp4'])('reads the duration of %s as ffprobe does', async (name) => {
    const seconds = await statedDuration(fileRanges(file(name)));
    expect(seconds).not.toBeNull();
    expect(Math.abs((seconds as number) - (await durationOf(file(name))))).toBeLessThan(0.002);
  });

  it('leaves a fragmented MP4 to ffprobe', async () => {
    expect(await statedDuration(fileRanges(file('fragmented.mp4')))).toBeNull();
  });

  it('leaves a truncated MP4 whose moov is cut to ffprobe', async () => {
    const truncated = file('moov-at-end.mp4');
    truncateSync(truncated, statSync(truncated).size - 100);
    expect(await statedDuration(fileRanges(truncated))).toBeNull();
  });

  it('answers null, not a guess, for a WebM that states no duration (ffprobe: N/A)', async () => {
    expect(await statedDuration(fileRanges(file('live.webm')))).toBeNull();
  });
});
