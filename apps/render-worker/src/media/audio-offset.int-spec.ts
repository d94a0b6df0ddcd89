import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { useCleanAudioJobs } from './testing/clean-audio-jobs';
import { ffmpeg } from './testing/media-tools';

// The quality report's audio offset (decision 0098) on real read speech from ../shared/media (README
// there), with hiss under it, through the whole clean-audio job: both output containers, and audio
// that starts after the picture. The speech's own pitch and pauses are what lets it be told; the
// synthetic test voice, a buzz at a steady beat, reads null (clean-audio-video.int-spec.ts).
const MEDIA = resolve(__dirname, '../../../..', '../shared/media');
const present = existsSync(MEDIA);
if (!present) console.warn(`audio offset tests skipped: ${MEDIA} is absent (real test media live outside the repo)`);
const describeWithMedia = present ? describe : describe.skip;

const SPEECH = 'sense_and_sensibility_01_austen_64kb-0890.wav';
const PICTURE = { h264: ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'], vp9: ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8'] };
const AUDIO = { h264: ['-c:a', 'aac', '-f', 'mp4'], vp9: ['-c:a', 'libopus', '-f', 'webm'] };

describeWithMedia('the quality report’s audio offset on real speech', () => {
  const { media, clean } = useCleanAudioJobs('vj-audio-offset-');

  // 8 s of the speech with hiss under it over a test picture, the audio `lateSeconds` after it.
  async function clip(codec: 'h264' | 'vp9', lateSeconds: number): Promise<string> {
    const path = media(`speech-${codec}-${lateSeconds}.${codec === 'h264' ? 'mp4' : 'webm'}`);
    await ffmpeg([
      '-f', 'lavfi', '-i', `testsrc2=size=160x120:rate=25:duration=${8 + lateSeconds}`,
      '-itsoffset', String(lateSeconds), '-i', join(MEDIA, 'audio', SPEECH),
      '-f', 'lavfi', '-i', 'anoisesrc=color=white:amplitude=0.02:seed=3',
      '-filter_complex', '[1:a][2:a]amix=inputs=2:duration=first:normalize=0[a]',
      '-map', '0:v', '-map', '[a]', '-t', String(8 + lateSeconds), ...PICTURE[codec], ...AUDIO[codec], path,
    ]);
    return path;
  }

  it.each([
    ['MP4 (AAC: its priming, which the file skips, taken off the tap)', 'h264', 0],
    ['WebM (Opus)', 'vp9', 0],
    ['MP4 whose audio starts 2.5 s after its picture', 'h264', 2.5],
  ] as const)('reads 0 ms for %s', async (_name, codec, lateSeconds) => {
    const { quality } = await clean(await clip(codec, lateSeconds));
    expect(Math.abs(quality.audioOffsetMs ?? NaN)).toBeLessThanOrEqual(1);
  });
});
