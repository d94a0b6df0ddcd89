import type { JobWorkRequestedV1, OutputCodec } from '@vj/contracts';
import { JobFailure } from '../errors/job-failure';
import type { CleanAudioVideoRequest, CleanedVideo } from '../media';
import type { MediaProbe } from '../media/parse-probe';
import type { RemoveBackgroundRequest } from '../matting/remove-background';
import { MattingModelRegistry } from '../matting/model-registry';
import type { Segmenter } from '../matting/matting-model';
import { CleanAudioVideoProcessor } from './clean-audio-video.processor';
import { renderWorkerEnv } from '../render-worker.env';
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

const bgJob = (options: object): JobWorkRequestedV1<'video-background-removal'> => ({
  ...job({}),
  job_type: 'video-background-removal',
  options: options as JobWorkRequestedV1<'video-background-removal'>['options'],
});

// What a cleaning measured (decision 0096), and how the job's result keeps it.
const QUALITY: CleanedVideo['quality'] = {
  input: { integratedLufs: -30.1, truePeakDb: -6.2, noiseFloorDb: -48.3 },
  output: { integratedLufs: -19, truePeakDb: -1.4, noiseFloorDb: null },
  audioOffsetMs: 0,
  picture: { sourceSha256: 'a'.repeat(64), writtenSha256: 'a'.repeat(64) },
};
const STORED_QUALITY = {
  kind: 'clean-audio',
  input: { integrated_lufs: -30.1, true_peak_dbtp: -6.2, noise_floor_dbfs: -48.3 },
  output: { integrated_lufs: -19, true_peak_dbtp: -1.4, noise_floor_dbfs: null },
  audio_offset_ms: 0,
  picture: { source_sha256: 'a'.repeat(64), output_sha256: 'a'.repeat(64) },
};

describe('CleanAudioVideoProcessor', () => {
  it("runs the job's processes through the warm denoisers, and fills them again once the delivery is done", async () => {
    const warm = {
      spawn: jest.fn(() => {
        throw new Error('started through the warm denoisers');
      }),
      fill: jest.fn(),
    };
    const requests: CleanAudioVideoRequest[] = [];
    const processor = new CleanAudioVideoProcessor({ maxAudioSeconds: 1800, timeLimitMs: 60_000, warmDenoisers: warm }, async (request) => {
      requests.push(request);
      return { outputPath: '/work/out.mp4', contentType: 'video/mp4', fileExtension: 'mp4', durationSeconds: 1, quality: QUALITY };
    });
    await processor.run({ job: job({}), inputPath: '/work/input', workDir: '/work', signal: new AbortController().signal });
    await expect(requests[0]!.runner!.run({ file: 'ffmpeg', args: [] }, { timeoutMs: 5_000 })).rejects.toThrow('started through the warm denoisers');
    expect(warm.fill).not.toHaveBeenCalled();
    processor.afterDelivery();
    expect(warm.fill).toHaveBeenCalledTimes(1);
  });

  it('cleans with the job options, the configured limits and names the file <job_id>-clean.<ext>', async () => {
    const requests: CleanAudioVideoRequest[] = [];
    const processor = new CleanAudioVideoProcessor({ maxAudioSeconds: 1800, timeLimitMs: 3_600_000, ffmpegPath: '/bin/ffmpeg', denoisers: 2 }, async (request) => {
      requests.push(request);
      return { outputPath: '/work/out.webm', contentType: 'video/webm', fileExtension: 'webm', durationSeconds: 61.2, quality: QUALITY };
    });
    const signal = new AbortController().signal;
    const output = await processor.run({ job: job({ strength: 0.5 }), inputPath: '/work/input', workDir: '/work', signal });
    expect(requests[0]).toEqual(
      expect.objectContaining({
        inputPath: '/work/input',
        options: { strength: 0.5, normalize_loudness: true, target_lufs: -19 },
        maxAudioSeconds: 1800,
        denoisers: 2,
        timeoutMs: 3_600_000,
        signal,
        ffmpegPath: '/bin/ffmpeg',
      }),
    );
    expect(output).toEqual({ files: [{ path: '/work/out.webm', fileName: 'job-1-clean.webm', contentType: 'video/webm' }], durationSeconds: 61.2, quality: STORED_QUALITY });
  });

  // Decision 0093.
  it('keeps the stems of a job for exports unless told not to, and remixes an export from its source’s', async () => {
    const requests: CleanAudioVideoRequest[] = [];
    const stems = { path: '/work/stems.flac', lowBandEnergy: { inputEnergy: 4, removedEnergy: 1 }, input: { integratedLufs: -23.5, truePeakDb: -3.1, noiseFloorDb: -60.2 } };
    const clean = async (request: CleanAudioVideoRequest) => {
      requests.push(request);
      return { outputPath: '/work/out.mp4', contentType: 'video/mp4' as const, fileExtension: 'mp4' as const, durationSeconds: 3, quality: QUALITY, ...(request.keepStemsAt && { stems }) };
    };
    const signal = new AbortController().signal;
    const kept = await new CleanAudioVideoProcessor({ maxAudioSeconds: 1800, timeLimitMs: 60_000 }, clean).run({ job: job({}), inputPath: '/work/input', workDir: '/work', signal });
    expect(requests[0]).toMatchObject({ keepStemsAt: '/work/stems.flac' });
    expect(kept.kept).toEqual({
      files: { file: { path: '/work/stems.flac', fileName: 'job-1-stems.flac', contentType: 'audio/flac' } },
      details: { kind: 'stems', low_band_energy: { input: 4, removed: 1 }, input_lufs: -23.5, input_true_peak_dbtp: -3.1, input_noise_floor_dbfs: -60.2 },
    });

    const notKept = await new CleanAudioVideoProcessor({ maxAudioSeconds: 1800, timeLimitMs: 60_000, keepStems: false }, clean).run({ job: job({}), inputPath: '/work/input', workDir: '/work', signal });
    expect(requests[1]).not.toHaveProperty('keepStemsAt');
    expect(notKept).not.toHaveProperty('kept');

    const source = { kind: 'stems' as const, file: { object_key: 'k', content_type: 'audio/flac', file_name: 'f', file_size: 1 }, low_band_energy: { input: 4, removed: 1 }, input_lufs: null, duration_seconds: 3 };
    const exportJob = { ...job({ strength: 0.2, export_of: 'src' }), input: { kind: 'export' as const, source_job_id: 'src', picture: source.file, source } };
    await new CleanAudioVideoProcessor({ maxAudioSeconds: 1800, timeLimitMs: 60_000 }, clean).run({ job: exportJob, inputPath: '/work/input', workDir: '/work', signal, exportSourcePath: '/work/input.export-source' });
    // Stems kept before reports have only the input's loudness.
    expect(requests[2]).toMatchObject({ fromStems: { path: '/work/input.export-source', lowBandEnergy: { inputEnergy: 4, removedEnergy: 1 }, input: { integratedLufs: null, truePeakDb: null, noiseFloorDb: null } } });
    expect(requests[2]).not.toHaveProperty('keepStemsAt');
  });
});

describe('VideoBackgroundRemovalProcessor', () => {
  const segmenter = (name: string): Segmenter => ({
    spec: { name, path: `/models/${name}.onnx`, width: 256, height: 256, layout: 'nhwc', mean: [0, 0, 0], std: [1, 1, 1], output: 'probability' },
    segment: async () => new Float32Array(256 * 256),
  });
  const settings = { maxSeconds: 60, maxResultBytes: 4 * 1024 ** 3, timeLimitMs: 1_800_000, ffmpegPath: '/bin/ffmpeg' };

  it('mattes with the job options and the person model, and names the files <job_id>-<role>.<ext>', async () => {
    const requests: RemoveBackgroundRequest[] = [];
    const person = segmenter('person');
    const processor = new VideoBackgroundRemovalProcessor(settings, new MattingModelRegistry({ person: [person], general: [] }), async (request) => {
      requests.push(request);
      return {
        files: [
          { path: '/work/rgb.mp4', role: 'rgb', contentType: 'video/mp4', fileExtension: 'mp4' },
          { path: '/work/matte.mp4', role: 'matte', contentType: 'video/mp4', fileExtension: 'mp4' },
        ],
        durationSeconds: 4.2,
        frameRate: '25',
        frames: 126,
        width: 640,
        height: 480,
      };
    });
    const signal = new AbortController().signal;
    const output = await processor.run({ job: bgJob({ output_codec: 'h264' }), inputPath: '/work/input', workDir: '/work', signal });
    expect(requests[0]).toEqual(
      expect.objectContaining({
        inputPath: '/work/input',
        options: { output_codec: 'h264', refine_foreground_edges: true, subject_is_person: true },
        segmenters: [person],
        maxSeconds: 60,
        maxResultBytes: 4 * 1024 ** 3,
        timeoutMs: 1_800_000,
        signal,
        ffmpegPath: '/bin/ffmpeg',
        keepMatteAt: '/work/matte.mkv',
      }),
    );
    expect(output).toEqual({
      files: [
        { path: '/work/rgb.mp4', fileName: 'job-1-rgb.mp4', contentType: 'video/mp4' },
        { path: '/work/matte.mp4', fileName: 'job-1-matte.mp4', contentType: 'video/mp4' },
      ],
      durationSeconds: 4.2,
      // For exports (decision 0094): the alpha frames and the input.
      kept: {
        files: {
          file: { path: '/work/matte.mkv', fileName: 'job-1-kept-matte.mkv', contentType: 'video/x-matroska' },
          source: { path: '/work/input', fileName: 'job-1-kept-source', contentType: 'application/octet-stream' },
        },
        details: { kind: 'matte' },
      },
    });

    // An export encodes from its source's matte and keeps nothing; a worker told to keep nothing keeps nothing.
    const file = { object_key: 'k', content_type: 'video/x-matroska', file_name: 'f', file_size: 1 };
    const exportJob = { ...bgJob({ output_codec: 'prores', export_of: 'src' }), input: { kind: 'export' as const, source_job_id: 'src', picture: file, source: { kind: 'matte' as const, file, source: file, duration_seconds: 4.2 } } };
    const exported = await processor.run({ job: exportJob, inputPath: '/work/input', workDir: '/work', signal, exportSourcePath: '/work/input.export-source' });
    expect(requests[1]).toMatchObject({ fromMatte: '/work/input.export-source', options: { output_codec: 'prores' } });
    expect(requests[1]).not.toHaveProperty('keepMatteAt');
    expect(exported).not.toHaveProperty('kept');
    const keepsNothing = new VideoBackgroundRemovalProcessor({ ...settings, keepMatte: false }, new MattingModelRegistry({ person: [person], general: [] }), async (request) => {
      requests.push(request);
      return { files: [], durationSeconds: 1, frameRate: '25', frames: 25, width: 320, height: 240 };
    });
    expect(await keepsNothing.run({ job: bgJob({}), inputPath: '/work/input', workDir: '/work', signal })).not.toHaveProperty('kept');
    expect(requests[2]).not.toHaveProperty('keepMatteAt');
    // A matte that reached the size limit was removed: nothing is kept, the job's own files stand.
    const tooLarge = new VideoBackgroundRemovalProcessor(settings, new MattingModelRegistry({ person: [person], general: [] }), async () => ({ files: [], durationSeconds: 1, frameRate: '25', frames: 25, width: 320, height: 240, matteKept: false }));
    expect(await tooLarge.run({ job: bgJob({}), inputPath: '/work/input', workDir: '/work', signal })).not.toHaveProperty('kept');
  });

  it('fails the job with input_validation naming subject_is_person when no general model is configured', () => {
    const processor = new VideoBackgroundRemovalProcessor(settings, new MattingModelRegistry({ person: [segmenter('person')], general: [] }));
    const error = (() => {
      try {
        processor.check(bgJob({ subject_is_person: false }));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(JobFailure);
    expect(error).toMatchObject({ code: 'input_validation', details: [{ type: 'model_unavailable', field: 'subject_is_person' }] });
    expect(() => processor.check(bgJob({}))).not.toThrow();
  });

  it.each([
    [{ color: '#00ff00[x];movie=/etc/passwd' }],
    [{ color: '#00ff00', blur: 0.5 }],
    [{ blur: Number.NaN }],
    [{ blur: 2 }],
    [{ image_url: 'file:///etc/passwd' }],
    [{ image_url: 'https://user:secret@media.example.com/beach.jpg' }],
  ])('refuses a background the API would not take, %j, before the input is fetched', (background) => {
    const processor = new VideoBackgroundRemovalProcessor(settings, new MattingModelRegistry({ person: [segmenter('person')], general: [] }));
    expect(() => processor.check(bgJob({ output_codec: 'h264', background }))).toThrow(expect.objectContaining({ code: 'input_validation', details: [expect.objectContaining({ field: 'background' })] }));
    expect(() => processor.check(bgJob({ output_codec: 'h264', background: { color: '#00ff00' } }))).not.toThrow();
  });

  it('fetches a background image_url into the job folder before the model runs, and hands its path on', async () => {
    const fetched: [string, string, string][] = [];
    const requests: RemoveBackgroundRequest[] = [];
    const images = { fetch: async (url: string, accountId: string, path: string) => void fetched.push([url, accountId, path]) };
    const processor = new VideoBackgroundRemovalProcessor(
      settings,
      new MattingModelRegistry({ person: [segmenter('person')], general: [] }),
      async (request) => {
        requests.push(request);
        return { files: [{ path: '/work/composite.mp4', role: 'composite', contentType: 'video/mp4', fileExtension: 'mp4' }], durationSeconds: 1, frameRate: '25', frames: 25, width: 320, height: 240 };
      },
      images,
    );
    const background = { image_url: 'https://media.example.com/beach.jpg' };
    await processor.run({ job: bgJob({ output_codec: 'h264', background }), inputPath: '/work/input', workDir: '/work', signal: new AbortController().signal });
    expect(fetched).toEqual([['https://media.example.com/beach.jpg', 'acct-1', '/work/background-image']]);
    expect(requests[0]).toEqual(expect.objectContaining({ backgroundImagePath: '/work/background-image', options: expect.objectContaining({ background }) }));
  });

  it('fails as ours, to be retried elsewhere, when this worker has no fetcher for background images', async () => {
    const processor = new VideoBackgroundRemovalProcessor(settings, new MattingModelRegistry({ person: [segmenter('person')], general: [] }), async () => {
      throw new Error('unreachable');
    });
    const run = processor.run({ job: bgJob({ output_codec: 'h264', background: { image_url: 'https://media.example.com/beach.jpg' } }), inputPath: '/work/input', workDir: '/work', signal: new AbortController().signal });
    await expect(run).rejects.toThrow('without a fetcher for background images');
  });

  it('uses the general model for subject_is_person: false when one is configured', async () => {
    const general = segmenter('general');
    const requests: RemoveBackgroundRequest[] = [];
    const processor = new VideoBackgroundRemovalProcessor(settings, new MattingModelRegistry({ person: [segmenter('person')], general: [general] }), async (request) => {
      requests.push(request);
      return { files: [], durationSeconds: 1, frameRate: '25', frames: 25, width: 2, height: 2 };
    });
    await processor.run({ job: bgJob({ subject_is_person: false }), inputPath: '/in', workDir: '/w', signal: new AbortController().signal });
    expect(requests[0].segmenters).toEqual([general]);
  });
});

describe('what the processors refuse of a measured input, before any processing or charge', () => {
  const clean = new CleanAudioVideoProcessor({ maxAudioSeconds: 1800, timeLimitMs: 1000 });
  const matting = new VideoBackgroundRemovalProcessor({ maxSeconds: 60, maxResultBytes: 4 * 1024 ** 3, timeLimitMs: 1000 }, new MattingModelRegistry({ person: [], general: [] }));
  const mattingJob = (output_codec: OutputCodec) => bgJob({ output_codec });
  const vp9 = mattingJob('vp9');

  it('refuses media past 30 minutes with audio_too_long (docs/spec/api-v1.md: "up to 30 minutes of media")', () => {
    expect(clean.refusal({ seconds: 1800, videoFrames: 45_000 })).toBeNull();
    expect(clean.refusal({ seconds: 1801, videoFrames: 45_025 })).toMatchObject({ code: 'audio_too_long' });
  });

  it('refuses a video longer than the limit, and one with more than 60 frames a second, with input_validation on video_url', () => {
    expect(matting.refusal({ seconds: 60, videoFrames: 3600 }, vp9)).toBeNull();
    expect(matting.refusal({ seconds: 0.04, videoFrames: 2 }, vp9)).toBeNull();
    expect(matting.refusal({ seconds: 60.5, videoFrames: 1500 }, vp9)).toMatchObject({ code: 'input_validation', details: [{ type: 'video_too_long', field: 'video_url' }] });
    expect(matting.refusal({ seconds: 3, videoFrames: 3000 }, vp9)).toMatchObject({ code: 'input_validation', details: [{ type: 'frame_rate_too_high', field: 'video_url' }] });
  });

  it('takes a 61 s and a 9-minute video at the default limit of 10 minutes, and refuses an 11-minute one before any processing', () => {
    const limit = renderWorkerEnv.variables.BACKGROUND_REMOVAL_MAX_SECONDS.default as number;
    expect(limit).toBe(600);
    const atDefault = new VideoBackgroundRemovalProcessor({ maxSeconds: limit, maxResultBytes: 4 * 1024 ** 3, timeLimitMs: 1000 }, new MattingModelRegistry({ person: [], general: [] }));
    expect(atDefault.refusal({ seconds: 61, videoFrames: 61 * 30 }, vp9)).toBeNull();
    expect(atDefault.refusal({ seconds: 540, videoFrames: 540 * 30 }, vp9)).toBeNull();
    expect(atDefault.refusal({ seconds: 660, videoFrames: 660 * 30 }, vp9)).toMatchObject({ code: 'input_validation', details: [{ type: 'video_too_long', message: expect.stringContaining('the limit is 600 s') }] });
  });

  it('refuses a ProRes or PNG sequence result that may outgrow the result limit, on output_codec, and no other codec for it', () => {
    const measured = (width: number, height: number, videoFrames: number) => ({
      seconds: videoFrames / 30,
      videoFrames,
      probe: { formatName: 'mov', durationSeconds: videoFrames / 30, audio: null, video: { width, height } as NonNullable<MediaProbe['video']> },
    });
    // 1080p for 60 s: about 1.7 GiB by the estimate; 4096x2304 for 60 s, encoded at 3840x2160: about 7 GiB.
    expect(matting.refusal(measured(1920, 1080, 1800), mattingJob('prores'))).toBeNull();
    const refusal = matting.refusal(measured(4096, 2304, 1800), mattingJob('prores'));
    expect(refusal).toMatchObject({ code: 'input_validation', details: [{ type: 'result_too_large', field: 'output_codec' }] });
    expect(refusal?.details?.[0]?.message).toContain('at 3840x2160 takes about 7.0 GiB; the limit is 4.0 GiB');
    for (const codec of ['vp9', 'h264'] as const) expect(matting.refusal(measured(4096, 2304, 1800), mattingJob(codec))).toBeNull();
    // A PNG sequence: 1080p30 for 60 s about 3.5 GiB by the estimate, 1080p60 twice that.
    const frames = (fps: number) => ({ ...measured(1920, 1080, 60 * fps), seconds: 60 });
    expect(matting.refusal(frames(30), mattingJob('png_sequence'))).toBeNull();
    expect(matting.refusal(frames(60), mattingJob('png_sequence'))).toMatchObject({ details: [{ type: 'result_too_large', message: expect.stringContaining('A PNG sequence of 3600 frames at 1920x1080') }] });
  });
});
