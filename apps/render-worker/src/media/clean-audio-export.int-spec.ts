import type { CleanAudioVideoRequest, CleanedVideo, KeptStems } from './clean-audio-video';
import { siSdr } from './si-sdr';
import { useCleanAudioJobs } from './testing/clean-audio-jobs';
import { decodePcm, loudnessOf, makeTestVideo, streamsOf, videoPacketHashes } from './testing/media-tools';

// Exports of clean audio (decision 0093): a job keeps its stems, and an export remixes them at another
// strength or loudness without RNNoise. What it delivers must be what a whole job at those options
// delivers, with the source's picture copied bit for bit.

describe('clean audio exports from kept stems, with ffmpeg', () => {
  const { media, clean } = useCleanAudioJobs('vj-clean-export-');
  let kept = 0;

  beforeAll(async () => {
    await Promise.all([
      makeTestVideo(media('h264.mp4'), { codec: 'h264', seconds: 6, output: ['-c:a', 'aac', '-f', 'mp4'] }),
      makeTestVideo(media('vp9.webm'), { codec: 'vp9', seconds: 3, output: ['-c:a', 'libopus', '-f', 'webm'] }),
      makeTestVideo(media('32s.mp4'), { codec: 'h264', seconds: 32, output: ['-c:a', 'aac', '-f', 'mp4'] }),
    ]);
  });

  async function keptJob(input: string, overrides: Partial<CleanAudioVideoRequest> = {}): Promise<{ job: CleanedVideo; stems: KeptStems }> {
    const job = await clean(input, {}, { keepStemsAt: media(`stems-${++kept}.flac`), ...overrides });
    if (!job.stems) throw new Error('the job kept no stems');
    return { job, stems: job.stems };
  }

  // How close an export's audio is to the whole job's at the same options: SI-SDR of one against the other.
  async function agreement(exported: string, whole: string): Promise<number> {
    const [a, b] = await Promise.all([decodePcm(exported), decodePcm(whole)]);
    const length = Math.min(a.length, b.length);
    return siSdr(a.subarray(0, length), b.subarray(0, length));
  }

  it.each([
    ['h264.mp4', 'aac'],
    ['vp9.webm', 'opus'],
  ])('keeps lossless 4-channel stems of %s, and an export at another strength delivers the whole job’s audio with the source’s picture', async (name, audioCodec) => {
    const { job, stems } = await keptJob(media(name));
    const [kept] = await streamsOf(stems.path);
    expect(kept).toMatchObject({ codec_type: 'audio', codec_name: 'flac', channels: 4, sample_rate: '48000' });
    const source = await loudnessOf(media(name));
    expect(stems.input.integratedLufs).toBeCloseTo(source.integratedLufs, 0);
    // The quality report (decision 0096): the source as measured, the delivered audio, the picture copied.
    expect(job.quality.input).toEqual(stems.input);
    expect(job.quality.input.truePeakDb).toBeCloseTo(source.truePeakDb, 0);
    expect(job.quality.input.noiseFloorDb).toBeLessThan(source.integratedLufs);
    expect(job.quality.output.integratedLufs).toBeCloseTo((await loudnessOf(job.outputPath)).integratedLufs, 0);
    expect(job.quality.output.truePeakDb).toBeLessThanOrEqual(-1);
    expect(job.quality.picture.writtenSha256).toBe(job.quality.picture.sourceSha256);

    const [whole, exported] = await Promise.all([clean(media(name), { strength: 0.3 }), clean(job.outputPath, { strength: 0.3 }, { fromStems: stems })]);
    expect(exported.contentType).toBe(whole.contentType);
    expect(await agreement(exported.outputPath, whole.outputPath)).toBeGreaterThan(25);
    expect(Math.abs((await loudnessOf(exported.outputPath)).integratedLufs - (await loudnessOf(whole.outputPath)).integratedLufs)).toBeLessThan(0.5);
    expect(await videoPacketHashes(exported.outputPath)).toEqual(await videoPacketHashes(media(name)));
    expect((await streamsOf(exported.outputPath)).find((stream) => stream.codec_type === 'audio')).toMatchObject({ codec_name: audioCodec, channels: 1, sample_rate: '48000' });
  });

  it('keeps the source’s loudness for normalize_loudness false, as a whole job does, though its input is a normalised file', async () => {
    const { job, stems } = await keptJob(media('h264.mp4'));
    const options = { strength: 0.6, normalize_loudness: false };
    const [whole, exported] = await Promise.all([clean(media('h264.mp4'), options), clean(job.outputPath, options, { fromStems: stems })]);
    expect(Math.abs((await loudnessOf(exported.outputPath)).integratedLufs - (await loudnessOf(whole.outputPath)).integratedLufs)).toBeLessThan(0.5);
    expect(await agreement(exported.outputPath, whole.outputPath)).toBeGreaterThan(25);
  });

  it('puts the stems of a file denoised in parts together in place: an export at the same strength gives the job’s own audio', async () => {
    const { job, stems } = await keptJob(media('32s.mp4'), { denoisers: 2 });
    const exported = await clean(job.outputPath, {}, { fromStems: stems });
    expect(await agreement(exported.outputPath, job.outputPath)).toBeGreaterThan(25);
  });
});
