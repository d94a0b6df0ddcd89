import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VideoBackgroundRemovalJob } from '@vj/contracts';
import type { VideoBackgroundRemovalReport } from '@vj/sdk';
import { ffmpeg as ffmpegTool } from '../../apps/render-worker/src/media/testing/media-tools';
import { decodeAlpha, decodeGray, decodeWebmAlpha, meanAbsoluteDifference, regionMean, streamsOf, videoFrameTimes, zipEntries } from '../../apps/render-worker/src/matting/testing/matte-tools';
import { useE2eStack } from '../support/e2e-stack';
import { waitForFinalJob } from '../support/job-polling';
import { generateVideo } from '../support/media-tools';
import { SHARED_MEDIA_DIR, sharedMediaAvailable } from '../support/shared-media';

describe('video-background-removal through the REST API, all four services', () => {
  const e2e = useE2eStack('e2e-background-removal', { BACKGROUND_REMOVAL_MAX_SECONDS: '5' });
  const run = (body: Record<string, unknown>) => e2e.runBackgroundRemoval(body);

  // Downloads every result file, checking each against what the job object says of it.
  async function downloadAll(job: VideoBackgroundRemovalJob): Promise<string[]> {
    expect(job.status).toBe('COMPLETED');
    return Promise.all(
      job.result!.files!.map(async (file) => {
        const path = await e2e.download(file.url, file.file_name!);
        expect(statSync(path).size).toBe(file.file_size);
        return path;
      }),
    );
  }

  it('makes one VP9 WebM with alpha from an upload, sound kept as Opus', async () => {
    const input = join(e2e.dir, 'talk.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 2, audio: true, size: '320x240' });
    const job = await run({ video_url: await e2e.upload(input, 'video/mp4') });
    expect(job.result!.files).toEqual([
      expect.objectContaining({ content_type: 'video/webm', file_name: `${job.job_id}-transparent.webm`, file_size: expect.any(Number) }),
    ]);
    const [webm] = await downloadAll(job);
    const streams = await streamsOf(webm);
    expect(streams.video).toEqual([expect.objectContaining({ codec_name: 'vp9', width: 320, height: 240 })]);
    expect(streams.video[0].tags).toMatchObject({ alpha_mode: '1' });
    expect(streams.audio).toEqual([expect.objectContaining({ codec_name: 'opus' })]);
    const frames = await decodeWebmAlpha(webm, 320, 240);
    expect(frames).toHaveLength((await videoFrameTimes(input)).length);
    // Its quality report (decision 0096): every frame matted, counted against the delivered alpha.
    const { body: quality } = await e2e.api.request<VideoBackgroundRemovalReport>('GET', `/v1/video-background-removal/${job.job_id}/report`, 'VideoBackgroundRemovalReport');
    const shown = frames.filter((alpha) => alpha.filter((value) => value >= 128).length >= 0.001 * alpha.length).length;
    expect(quality).toMatchObject({ job_id: job.job_id, frames: frames.length });
    expect(Math.abs(quality.frames_with_person - shown)).toBeLessThanOrEqual(2);
    expect(quality.person_frame_share).toBeCloseTo(quality.frames_with_person / frames.length, 5);
    expect(quality.flicker).toBeLessThan(0.05);
  });

  it('makes an H.264 picture and an H.264 matte, frame-aligned, from a URL', async () => {
    const input = join(e2e.dir, 'clip.webm');
    await generateVideo(input, { codec: 'vp9', seconds: 2, audio: true, size: '320x240' });
    const job = await run({ video_url: `${e2e.files.baseUrl}/clip.webm`, output_codec: 'h264', refine_foreground_edges: false });
    expect(job.result!.files!.map((file) => [file.file_name, file.content_type])).toEqual([
      [`${job.job_id}-rgb.mp4`, 'video/mp4'],
      [`${job.job_id}-matte.mp4`, 'video/mp4'],
    ]);
    const [rgb, matte] = await downloadAll(job);
    const times = await videoFrameTimes(rgb);
    expect(times).toHaveLength((await videoFrameTimes(input)).length);
    expect(await videoFrameTimes(matte)).toEqual(times);
    expect((await streamsOf(rgb)).audio).toEqual([expect.objectContaining({ codec_name: 'aac' })]);
    expect((await streamsOf(matte)).audio).toEqual([]);
  });

  // Issue 39 item 3, decision 0094: matte once, deliver many.
  it('exports a completed job as other deliverables without the model: an H.264 picture and matte, then a composite; each its own job', async () => {
    const input = join(e2e.dir, 'exported.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 2, audio: true, size: '320x240' });
    const source = await run({ video_url: await e2e.upload(input, 'video/mp4') });
    const [webm] = await downloadAll(source);
    const exportOf = async (body: Record<string, unknown>) => {
      const created = await e2e.api.request<VideoBackgroundRemovalJob>('POST', `/v1/video-background-removal/${source.job_id}/exports`, 'VideoBackgroundRemovalJob', body);
      expect(created.status).toBe(202);
      // 2 s at the export line's 0.5 credit a second: the minimum, 2 credits.
      expect(created.body).toEqual({ job_id: expect.any(String), status: 'PROCESSING', credits_estimated: 2 });
      return waitForFinalJob<VideoBackgroundRemovalJob>(e2e.api, `/v1/video-background-removal/${created.body.job_id}`, 'VideoBackgroundRemovalJob', 240_000);
    };
    const h264 = await exportOf({ output_codec: 'h264' });
    expect(h264.result!.files!.map((file) => file.file_name)).toEqual([`${h264.job_id}-rgb.mp4`, `${h264.job_id}-matte.mp4`]);
    const [rgb, matte] = await downloadAll(h264);
    expect(await videoFrameTimes(rgb)).toHaveLength((await videoFrameTimes(input)).length);
    expect((await streamsOf(rgb)).audio).toEqual([expect.objectContaining({ codec_name: 'aac' })]);
    // The same matte as the source job's, through two lossy encodes.
    const [first, again] = [await decodeWebmAlpha(webm, 320, 240), await decodeGray(matte, 320, 240)];
    expect(again).toHaveLength(first.length);
    for (let i = 0; i < first.length; i++) expect(meanAbsoluteDifference(again[i], first[i])).toBeLessThan(6);
    const composite = await exportOf({ background: { color: '#00b140' } });
    expect(composite.result!.files!.map((file) => file.file_name)).toEqual([`${composite.job_id}-composite.mp4`]);
    // An export re-encodes its source's matte: its report is the source's (404 says so).
    expect(await e2e.api.request('GET', `/v1/video-background-removal/${h264.job_id}/report`, 'RequestError')).toMatchObject({
      status: 404,
      body: { error: { message: expect.stringContaining('source job') } },
    });
    // Refused: a codec the background cannot take, and an export's own id.
    expect((await e2e.api.request('POST', `/v1/video-background-removal/${source.job_id}/exports`, 'RequestError', { output_codec: 'vp9', background: { blur: 0.5 } })).status).toBe(422);
    expect((await e2e.api.request('POST', `/v1/video-background-removal/${h264.job_id}/exports`, 'RequestError', {})).status).toBe(404);
  });

  it('makes one ProRes 4444 QuickTime with alpha for editing suites, sound kept as AAC', async () => {
    const input = join(e2e.dir, 'edit.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 2, audio: true, size: '320x240' });
    const job = await run({ video_url: await e2e.upload(input, 'video/mp4'), output_codec: 'prores' });
    expect(job.result!.files).toEqual([expect.objectContaining({ content_type: 'video/quicktime', file_name: `${job.job_id}-transparent.mov` })]);
    const [mov] = await downloadAll(job);
    const streams = await streamsOf(mov);
    expect(streams.video).toEqual([expect.objectContaining({ codec_name: 'prores', profile: '4444', width: 320, height: 240 })]);
    expect(streams.audio).toEqual([expect.objectContaining({ codec_name: 'aac' })]);
    expect(await decodeAlpha(mov, 320, 240)).toHaveLength((await videoFrameTimes(input)).length);
  });

  it('makes one ZIP of RGBA PNGs, one a frame, with the sound as WAV', async () => {
    const input = join(e2e.dir, 'frames.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 2, audio: true, size: '320x240' });
    const job = await run({ video_url: await e2e.upload(input, 'video/mp4'), output_codec: 'png_sequence', refine_foreground_edges: false });
    expect(job.result!.files).toEqual([expect.objectContaining({ content_type: 'application/zip', file_name: `${job.job_id}-frames.zip` })]);
    const [zip] = await downloadAll(job);
    const names = [...(await zipEntries(zip)).keys()];
    const frames = (await videoFrameTimes(input)).length;
    expect(names).toEqual([...Array.from({ length: frames }, (_, i) => `frames/${String(i).padStart(6, '0')}.png`), 'audio.wav']);
  });

  it('puts the person on a colour: one opaque H.264 MP4 with the sound', async () => {
    const input = join(e2e.dir, 'on-colour.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 2, audio: true, size: '320x240' });
    const job = await run({ video_url: await e2e.upload(input, 'video/mp4'), background: { color: '#00b140' } });
    expect(job.result!.files).toEqual([expect.objectContaining({ content_type: 'video/mp4', file_name: `${job.job_id}-composite.mp4` })]);
    const [mp4] = await downloadAll(job);
    const streams = await streamsOf(mp4);
    expect(streams.video).toEqual([expect.objectContaining({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 320, height: 240 })]);
    expect(streams.audio).toEqual([expect.objectContaining({ codec_name: 'aac' })]);
  });

  it('puts the person on an image fetched from a URL, and fails a GIF background with input_validation on background', async () => {
    const input = join(e2e.dir, 'on-image.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 1, audio: true, size: '320x240' });
    await ffmpegTool(['-f', 'lavfi', '-i', 'color=c=0x2850c8:size=640x360', '-frames:v', '1', join(e2e.dir, 'studio.jpg')]);
    await ffmpegTool(['-f', 'lavfi', '-i', 'testsrc=size=64x64:rate=5:duration=1', join(e2e.dir, 'studio.gif')]);
    const job = await run({ video_url: await e2e.upload(input, 'video/mp4'), background: { image_url: `${e2e.files.baseUrl}/studio.jpg` } });
    expect(job.result!.files).toEqual([expect.objectContaining({ content_type: 'video/mp4', file_name: `${job.job_id}-composite.mp4` })]);
    const [mp4] = await downloadAll(job);
    expect((await streamsOf(mp4)).video).toEqual([expect.objectContaining({ codec_name: 'h264', width: 320, height: 240 })]);
    const gif = await run({ video_url: await e2e.upload(input, 'video/mp4'), background: { image_url: `${e2e.files.baseUrl}/studio.gif` } });
    expect(gif.status).toBe('FAILED');
    expect(gif.error).toMatchObject({ code: 'input_validation', details: [expect.objectContaining({ type: 'invalid_background_image', field: 'background' })] });
  });

  it('fails the job with input_validation naming subject_is_person when no general model is configured', async () => {
    const input = join(e2e.dir, 'object.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 1, audio: false, size: '320x240' });
    const job = await run({ video_url: await e2e.upload(input, 'video/mp4'), subject_is_person: false });
    expect(job.status).toBe('FAILED');
    expect(job.error).toMatchObject({ code: 'input_validation', details: [expect.objectContaining({ field: 'subject_is_person' })] });
  });

  it('fails the job with input_validation naming the limit when the video is too long', async () => {
    const input = join(e2e.dir, 'long.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 7, audio: false, size: '160x120' });
    const job = await run({ video_url: await e2e.upload(input, 'video/mp4') });
    expect(job.status).toBe('FAILED');
    expect(job.error).toMatchObject({ code: 'input_validation', details: [expect.objectContaining({ field: 'video_url', message: expect.stringContaining('limit is 5 s') })] });
  });

  it('fails the job with invalid_file when the file is not a video', async () => {
    const input = join(e2e.dir, 'notes.mp4');
    writeFileSync(input, 'this is not a video');
    const job = await run({ video_url: await e2e.upload(input, 'video/mp4'), output_codec: 'h264' });
    expect(job.status).toBe('FAILED');
    expect(job.error!.code).toBe('invalid_file');
  });

  describe('on real footage (../shared/media/video)', () => {
    const maybe = existsSync(SHARED_MEDIA_DIR) && sharedMediaAvailable() ? it : it.skip;

    // thanks.mkv: one person, upper body, centred, in front of a still office (CC BY 4.0, Intel).
    maybe.each(['vp9', 'h264'] as const)('cuts the person out of a real clip (%s)', async (codec) => {
      const job = await run({ video_url: await e2e.upload(join(SHARED_MEDIA_DIR, 'video', 'thanks.mkv'), 'video/x-matroska'), output_codec: codec });
      const files = await downloadAll(job);
      const alphas = codec === 'vp9' ? await decodeWebmAlpha(files[0], 640, 480) : await decodeGray(files[1], 640, 480);
      expect(alphas.length).toBeGreaterThan(40);
      for (const alpha of alphas) {
        expect(regionMean(alpha, 640, 480, [0.4, 0.45, 0.6, 0.75])).toBeGreaterThan(230);
        expect(regionMean(alpha, 640, 480, [0, 0, 0.2, 0.3])).toBeLessThan(10);
      }
    });
  });
});
