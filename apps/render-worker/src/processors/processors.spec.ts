import type { JobWorkRequestedV1 } from '@vj/contracts';
import { JobFailure } from '../errors/job-failure';
import type { CleanAudioVideoRequest } from '../media';
import { CleanAudioVideoProcessor } from './clean-audio-video.processor';
import { VideoBackgroundRemovalProcessor } from './video-background-removal.processor';

const job = (options: object): JobWorkRequestedV1<'clean-audio-video'> => ({
  version: 1,
  job_id: 'job-1',
  account_id: 'acct-1',
  job_type: 'clean-audio-video',
  input: { kind: 'url', url: 'https://cdn.example.com/in.mp4' },
  options: options as JobWorkRequestedV1<'clean-audio-video'>['options'],
  requested_at: '2025-01-01T00:00:00.000Z',
});

describe('CleanAudioVideoProcessor', () => {
  it('cleans with the job options, the configured limits and names the file <job_id>-clean.<ext>', async () => {
    const requests: CleanAudioVideoRequest[] = [];
    const processor = new CleanAudioVideoProcessor({ maxAudioSeconds: 1800, timeLimitMs: 3_600_000, ffmpegPath: '/bin/ffmpeg' }, async (request) => {
      requests.push(request);
      return { outputPath: '/work/out.webm', contentType: 'video/webm', fileExtension: 'webm', durationSeconds: 61.2 };
    });
    const signal = new AbortController().signal;
    const output = await processor.run({ job: job({ strength: 0.5 }), inputPath: '/work/input', workDir: '/work', signal });
    expect(requests[0]).toEqual(
      expect.objectContaining({
        inputPath: '/work/input',
        options: { strength: 0.5, normalize_loudness: true, target_lufs: -19 },
        maxAudioSeconds: 1800,
        timeoutMs: 3_600_000,
        signal,
        ffmpegPath: '/bin/ffmpeg',
      }),
    );
    expect(output).toEqual({ files: [{ path: '/work/out.webm', fileName: 'job-1-clean.webm', contentType: 'video/webm' }], durationSeconds: 61.2 });
  });
});

describe('VideoBackgroundRemovalProcessor', () => {
  it('fails the job with generation_failed saying it is not available yet', async () => {
    const error = await new VideoBackgroundRemovalProcessor().run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailure);
    expect(error).toEqual(expect.objectContaining({ code: 'generation_failed', message: expect.stringContaining('not available in this deployment yet') }));
  });
});
