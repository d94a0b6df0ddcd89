import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { CleanAudioVideoOptions } from '@vj/contracts';
import { isAbortError, MediaError } from './media-error';
import { useCleanAudioJobs } from './testing/clean-audio-jobs';
import { expectTrapRefused, makeSecretClip, makeTrap, TRAP_KINDS } from './testing/fence-traps';
import {
  durationOf,
  ffmpeg,
  loudnessOf,
  makeTestVideo,
  streamsOf,
  videoPacketHashes,
  type TestVideoCodec,
} from './testing/media-tools';

// The whole job with real ffmpeg, on small videos generated with lavfi.

const MP4_AAC = ['-c:a', 'aac', '-f', 'mp4'];
const WEBM_OPUS = ['-c:a', 'libopus', '-f', 'webm'];
// Hot, peaky sounds in 140 Hz bursts that RNNoise keeps: at 0.99 of full scale, 1-4 dB over 0 dBTP
// between samples. Encoded to AAC they peak 4-6 dB over the limiter's ceiling.
const HOT_SOURCES = {
  square: 'aevalsrc=0.99*sgn(sin(2*PI*140*t))*gt(sin(2*PI*2.5*t)\\,0):s=44100',
  sawtooth: 'aevalsrc=0.99*(2*mod(140*t\\,1)-1)*gt(sin(2*PI*2.5*t)\\,0):s=44100',
};

describe('cleanAudioVideo with ffmpeg', () => {
  const { media, clean } = useCleanAudioJobs('vj-clean-int-');

  beforeAll(async () => {
    await Promise.all([
      makeTestVideo(media('h264.mp4'), { codec: 'h264', output: MP4_AAC }),
      makeTestVideo(media('vp9.webm'), { codec: 'vp9', output: WEBM_OPUS }),
      makeTestVideo(media('mpeg4-base.mkv'), { codec: 'mpeg4', output: ['-c:a', 'libmp3lame', '-f', 'matroska'] }),
      makeTestVideo(media('silent-film.mp4'), { codec: 'h264', audio: 'none', output: ['-f', 'mp4'] }),
      makeTestVideo(media('long.mp4'), { codec: 'h264', seconds: 20, output: MP4_AAC }),
      makeTestVideo(media('32s.mp4'), { codec: 'h264', seconds: 32, output: MP4_AAC }),
    ]);
    // MPEG-4 with a second audio track and subtitles, which the job drops.
    writeFileSync(media('subs.srt'), '1\n00:00:00,000 --> 00:00:01,500\nhello\n');
    await ffmpeg([
      '-i', media('mpeg4-base.mkv'), '-f', 'lavfi', '-t', '2', '-i', 'sine=f=880', '-i', media('subs.srt'),
      '-map', '0', '-map', '1:a', '-map', '2', '-c:v', 'copy', '-c:a:0', 'copy', '-c:a:1', 'aac', '-c:s', 'srt',
      '-metadata:s:a:0', 'language=fra', '-f', 'matroska', media('mpeg4.mkv'),
    ]);
    await Promise.all(
      Object.entries(HOT_SOURCES).map(([name, source]) =>
        ffmpeg([
          '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=3', '-f', 'lavfi', '-t', '3', '-i', source,
          '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...MP4_AAC, '-b:a', '256k', media(`${name}.mp4`),
        ]),
      ),
    );
  });

  async function failureOf(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
      () => {
        throw new Error('expected the job to fail');
      },
      (error: unknown) => error,
    );
  }

  async function expectPictureCopied(input: string, output: string): Promise<void> {
    const [before, after] = await Promise.all([videoPacketHashes(input), videoPacketHashes(output)]);
    expect(before.length).toBeGreaterThan(10);
    expect(after).toEqual(before);
  }

  async function expectLoudness(output: string, targetLufs: number): Promise<void> {
    const loudness = await loudnessOf(output);
    expect(Math.abs(loudness.integratedLufs - targetLufs)).toBeLessThanOrEqual(1);
    expect(loudness.truePeakDb).toBeLessThanOrEqual(-1);
  }

  it('delivers H.264 input as MP4 with 48 kHz mono AAC, the picture copied and the loudness at target', async () => {
    const result = await clean(media('h264.mp4'));
    expect(result).toMatchObject({ contentType: 'video/mp4', fileExtension: 'mp4' });
    expect(result.durationSeconds).toBeCloseTo(2, 1);
    const streams = await streamsOf(result.outputPath);
    expect(streams.map((s) => [s.codec_type, s.codec_name])).toEqual([['video', 'h264'], ['audio', 'aac']]);
    expect(streams[1]).toMatchObject({ sample_rate: '48000', channels: 1 });
    expect(readFileSync(result.outputPath).subarray(4, 8).toString()).toBe('ftyp');
    await expectPictureCopied(media('h264.mp4'), result.outputPath);
    await expectLoudness(result.outputPath, -19);
    expect(Math.abs(await durationOf(result.outputPath) - 2)).toBeLessThan(0.1);
    // The test voice is a buzz in syllables at a steady beat: it tells no offset (decision 0098).
    expect(result.quality.audioOffsetMs).toBeNull();
  });

  it('delivers VP9 input as WebM with 48 kHz mono Opus, the picture copied and the loudness at target', async () => {
    const result = await clean(media('vp9.webm'), { target_lufs: -23 });
    expect(result).toMatchObject({ contentType: 'video/webm', fileExtension: 'webm' });
    const streams = await streamsOf(result.outputPath);
    expect(streams.map((s) => [s.codec_type, s.codec_name])).toEqual([['video', 'vp9'], ['audio', 'opus']]);
    expect(streams[1]).toMatchObject({ sample_rate: '48000', channels: 1 });
    await expectPictureCopied(media('vp9.webm'), result.outputPath);
    await expectLoudness(result.outputPath, -23);
  });

  it('delivers MPEG-4 input as MP4, dropping the second audio track and the subtitles', async () => {
    const input = media('mpeg4.mkv');
    expect((await streamsOf(input)).map((s) => s.codec_type)).toEqual(['video', 'audio', 'audio', 'subtitle']);
    const result = await clean(input, { target_lufs: -14 });
    expect(result.contentType).toBe('video/mp4');
    const streams = await streamsOf(result.outputPath);
    expect(streams.map((s) => [s.codec_type, s.codec_name])).toEqual([['video', 'mpeg4'], ['audio', 'aac']]);
    expect(streams[1].tags?.language).toBe('fra');
    await expectPictureCopied(input, result.outputPath);
    await expectLoudness(result.outputPath, -14);
  });

  it.each<[TestVideoCodec, string, string[]]>([
    ['hevc', 'video/mp4', MP4_AAC],
    ['av1', 'video/mp4', MP4_AAC],
    ['vp8', 'video/webm', WEBM_OPUS],
  ])('copies the %s picture into %s', async (codec, contentType, output) => {
    const input = media(`${codec}-input`);
    await makeTestVideo(input, { codec, output });
    const result = await clean(input);
    expect(result.contentType).toBe(contentType);
    await expectPictureCopied(input, result.outputPath);
  });

  describe('hostile audio', () => {
    // An H.264 MP4 of `seconds` with this lavfi source as its audio.
    async function clipWithAudio(name: string, seconds: number, audio: string): Promise<string> {
      const input = media(name);
      await ffmpeg([
        '-f', 'lavfi', '-i', `testsrc2=size=160x120:rate=25:duration=${seconds}`, '-f', 'lavfi', '-t', String(seconds), '-i', audio,
        '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...MP4_AAC, input,
      ]);
      return input;
    }

    it('delivers digital silence as silence, with nothing raised to the target', async () => {
      const input = await clipWithAudio('silence.mp4', 20, 'anullsrc=r=48000:cl=mono');
      const result = await clean(input);
      await expectPictureCopied(input, result.outputPath);
      const report = await ffmpeg(['-i', result.outputPath, '-af', 'volumedetect', '-f', 'null', '-']);
      // AAC's own floor: nothing was raised towards the target.
      expect(Number(/max_volume: (-[\d.]+|-inf) dB/.exec(report)?.[1] ?? 0)).toBeLessThan(-80);
    });

    it('delivers a full-scale square wave at mains frequency within range, the picture copied', async () => {
      const input = await clipWithAudio('mains-square.mp4', 6, 'aevalsrc=sgn(sin(2*PI*50*t)):s=48000');
      const result = await clean(input);
      await expectPictureCopied(input, result.outputPath);
      expect((await loudnessOf(result.outputPath)).truePeakDb).toBeLessThanOrEqual(-1);
    });

    it('fails with input_validation when the audio has more channels than can be mixed down (256)', async () => {
      const input = media('256-channels.mkv');
      const seconds = 0.5;
      const samples = 48_000 * seconds;
      const pcm = Buffer.alloc(samples * 256 * 2);
      for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 48_000)), i * 512);
      writeFileSync(media('256-channels.raw'), pcm);
      await ffmpeg([
        '-f', 'lavfi', '-i', `testsrc2=size=160x120:rate=25:duration=${seconds}`, '-f', 's16le', '-ar', '48000', '-ac', '256', '-i', media('256-channels.raw'),
        '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'pcm_s16le', '-f', 'matroska', input,
      ]);
      expect(await failureOf(clean(input))).toMatchObject({
        code: 'input_validation',
        details: [{ type: 'too_many_audio_channels', field: 'video_url', message: 'The audio has 256 channels; at most 64 are mixed down to mono' }],
      });
    });

    it('delivers an audio stream of one sample, the picture copied', async () => {
      const input = media('one-sample.mkv');
      writeFileSync(media('one-sample.raw'), Buffer.from([0x00, 0x40]));
      await ffmpeg([
        '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=2', '-f', 's16le', '-ar', '48000', '-ac', '1', '-i', media('one-sample.raw'),
        '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'pcm_s16le', '-f', 'matroska', input,
      ]);
      const result = await clean(input);
      await expectPictureCopied(input, result.outputPath);
      expect((await streamsOf(result.outputPath)).map((stream) => stream.codec_type)).toEqual(['video', 'audio']);
    });

    it('keeps audio that starts 10 s after the picture where it was', async () => {
      const input = media('late-audio.mp4');
      await ffmpeg([
        '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=25:duration=12', '-itsoffset', '10', '-f', 'lavfi', '-i', 'sine=f=300:d=2',
        '-map', '0:v', '-map', '1:a', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', ...MP4_AAC, input,
      ]);
      const result = await clean(input);
      await expectPictureCopied(input, result.outputPath);
      // The tone is where it was: silence for 10 s, then 2 s of it.
      const levels = await ffmpeg(['-i', result.outputPath, '-af', 'astats=metadata=1:reset=1,ametadata=print:key=lavfi.astats.Overall.RMS_level', '-f', 'null', '-']);
      const frames = [...levels.matchAll(/pts_time:([\d.]+)\n[^\n]*? lavfi\.astats\.Overall\.RMS_level=(-?[\d.]+|-inf)/g)].map(([, time, rms]) => ({ time: Number(time), rms: Number(rms) }));
      const toneStarts = frames.find(({ rms }) => rms > -40)?.time;
      expect(toneStarts).toBeGreaterThan(9.9);
      expect(toneStarts).toBeLessThan(10.05);
      expect(Math.abs(await durationOf(result.outputPath) - 12)).toBeLessThan(0.1);
      // A steady tone tells no offset (decision 0098).
      expect(result.quality.audioOffsetMs).toBeNull();
    });
  });

  it('keeps the input loudness when normalize_loudness is false', async () => {
    const input = await loudnessOf(media('h264.mp4'));
    const result = await clean(media('h264.mp4'), { normalize_loudness: false, target_lufs: -30 });
    const output = await loudnessOf(result.outputPath);
    expect(Math.abs(output.integratedLufs - input.integratedLufs)).toBeLessThanOrEqual(1);
  });

  // Before the fix the square wave at -8 LUFS was delivered at -0.5 dBTP and the sawtooth with
  // normalize_loudness false at -0.8 dBTP: the third encode overshot and was kept.
  it.each<[keyof typeof HOT_SOURCES, Partial<CleanAudioVideoOptions>]>([
    ['square', { target_lufs: -8 }],
    ['square', { normalize_loudness: false }],
    ['sawtooth', { target_lufs: -8 }],
    ['sawtooth', { normalize_loudness: false }],
  ])('delivers a hot %s with a true peak of at most -1 dBTP (%j): the ceiling wins over the loudness', async (name, options) => {
    const input = await loudnessOf(media(`${name}.mp4`));
    expect(input.truePeakDb).toBeGreaterThan(0);
    const result = await clean(media(`${name}.mp4`), options);
    const output = await loudnessOf(result.outputPath);
    expect(output.truePeakDb).toBeLessThanOrEqual(-1);
    // Measured from the tap while muxing: its raw AAC keeps the encoder's priming samples, which the
    // MP4's edit list skips, so the two readings may round 0.1 LU apart.
    expect(Math.abs((result.measuredLufs ?? NaN) - output.integratedLufs)).toBeLessThanOrEqual(0.1);
    // Lands below the target, as much as holding the peak takes, never above it.
    const targetLufs = options.normalize_loudness === false ? input.integratedLufs : -8;
    expect(output.integratedLufs).toBeLessThanOrEqual(targetLufs + 1);
    expect(output.integratedLufs).toBeGreaterThan(targetLufs - 12);
  });

  it('fails with invalid_file when the file is truncated', async () => {
    const whole = readFileSync(media('h264.mp4'));
    writeFileSync(media('truncated.mp4'), whole.subarray(0, whole.length / 2));
    const webm = readFileSync(media('vp9.webm'));
    writeFileSync(media('truncated.webm'), webm.subarray(0, Math.floor(webm.length * 0.6)));
    for (const input of ['truncated.mp4', 'truncated.webm']) {
      const error = await failureOf(clean(media(input)));
      expect(error).toBeInstanceOf(MediaError);
      expect(error).toMatchObject({ code: 'invalid_file' });
    }
  });

  it('fails with invalid_file when the file is not media at all', async () => {
    writeFileSync(media('notes.txt'), 'not a video\n'.repeat(100));
    // ffprobe reads text as an "ansi" video: refused as an unsupported codec, still invalid_file.
    expect(await failureOf(clean(media('notes.txt')))).toMatchObject({ code: 'invalid_file' });
  });

  it('fails with invalid_file saying there is no audio stream', async () => {
    expect(await failureOf(clean(media('silent-film.mp4')))).toMatchObject({
      code: 'invalid_file',
      details: [{ type: 'no_audio_stream' }],
    });
  });

  it('fails with audio_too_long when the audio is longer than the limit', async () => {
    expect(await failureOf(clean(media('h264.mp4'), {}, { maxAudioSeconds: 1 }))).toMatchObject({ code: 'audio_too_long' });
  });

  it('kills the work and fails with timeout past the time limit', async () => {
    const workDir = media('timeout-job');
    const error = await failureOf(clean(media('long.mp4'), {}, { timeoutMs: 300, workDir }));
    expect(error).toMatchObject({ code: 'timeout' });
    expect(readdirSync(workDir)).toEqual([]);
  });

  it('stops promptly with an AbortError when the job is cancelled', async () => {
    const controller = new AbortController();
    const workDir = media('cancelled-job');
    const running = clean(media('long.mp4'), {}, { signal: controller.signal, workDir });
    setTimeout(() => controller.abort(), 200);
    const error = await failureOf(running);
    expect(isAbortError(error)).toBe(true);
    expect(readdirSync(workDir)).toEqual([]);
  });

  describe('30 s or more on a worker with cores to spare', () => {
    it('denoises in parts at once and delivers what one denoiser delivers', async () => {
      const [parted, streamed] = await Promise.all([clean(media('32s.mp4'), {}, { denoisers: 2 }), clean(media('32s.mp4'), {}, { denoisers: 1 })]);
      await expectPictureCopied(media('32s.mp4'), parted.outputPath);
      await expectLoudness(parted.outputPath, -19);
      expect(parted.durationSeconds).toBe(streamed.durationSeconds);
      const [a, b] = await Promise.all([loudnessOf(parted.outputPath), loudnessOf(streamed.outputPath)]);
      expect(Math.abs(a.integratedLufs - b.integratedLufs)).toBeLessThanOrEqual(0.2);
      expect(Math.abs((await durationOf(parted.outputPath)) - (await durationOf(streamed.outputPath)))).toBeLessThan(0.001);
    });

    it('stops every denoiser when the job is cancelled, and leaves no file', async () => {
      const controller = new AbortController();
      const workDir = media('cancelled-parted-job');
      const running = clean(media('32s.mp4'), {}, { signal: controller.signal, workDir, denoisers: 2 });
      setTimeout(() => controller.abort(), 400);
      expect(isAbortError(await failureOf(running))).toBe(true);
      expect(readdirSync(workDir)).toEqual([]);
    });
  });

  it('works on a copy of the input whose name has spaces and quotes', async () => {
    const odd = media("it's a clip.mp4");
    copyFileSync(media('h264.mp4'), odd);
    const result = await clean(odd, { normalize_loudness: false });
    await expectPictureCopied(odd, result.outputPath);
  });

  // Decision 0019: every run that opens the upload is fenced; what it names is never read.
  describe('an upload that names another file on the worker', () => {
    it.each(TRAP_KINDS)('fails a %s upload with invalid_file and never opens the file it names', async (kind) => {
      const workDir = media(`trap-job-${kind}`);
      await expectTrapRefused(media(`trap-${kind}`), kind, (inputPath) => clean(inputPath, {}, { workDir, timeoutMs: 20_000 }));
      expect(readdirSync(workDir)).toEqual([]);
    });

    it.each(TRAP_KINDS)('fails a %s upload naming a real clip with invalid_file, delivering nothing of it', async (kind) => {
      const trap = await makeTrap(media(`leak-${kind}`), kind);
      await makeSecretClip(trap.targetPath);
      const workDir = media(`leak-job-${kind}`);
      expect(await failureOf(clean(trap.inputPath, {}, { workDir }))).toMatchObject({ code: 'invalid_file', details: [{ type: 'unsupported_container' }] });
      expect(readdirSync(workDir)).toEqual([]);
    });
  });

  it.each([
    ['PNG', 'png'],
    ['JPEG', 'mjpeg'],
  ])('fails with invalid_file, a still image, for a %s picture', async (_name, codec) => {
    const image = media(`picture-${codec}`);
    await ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=320x240', '-frames:v', '1', '-c:v', codec, '-f', 'image2', '-update', '1', image]);
    expect(await failureOf(clean(image))).toMatchObject({ code: 'invalid_file', message: 'The file is a still image, not a video', details: [{ type: 'still_image' }] });
  });

  it.each([
    ['MP4', 'mp4'],
    ['Matroska', 'matroska'],
  ])('fails with invalid_file, a still image, for a one-frame H.264 video with sound in %s', async (_name, container) => {
    const still = media(`one-frame.${container}`);
    await ffmpeg([
      '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25', '-f', 'lavfi', '-t', '2', '-i', 'sine',
      '-frames:v', '1', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', container, still,
    ]);
    expect(await failureOf(clean(still))).toMatchObject({ code: 'invalid_file', details: [{ type: 'still_image' }] });
  });

  it('fails with input_validation when the picture is larger than any decoder here reads (8192x4352)', async () => {
    const huge = media('8448x4352.mp4');
    await ffmpeg([
      '-f', 'lavfi', '-i', 'color=c=blue:size=8448x4352:rate=25:duration=0.08', '-f', 'lavfi', '-t', '1', '-i', 'sine',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', huge,
    ]);
    expect(await failureOf(clean(huge))).toMatchObject({ code: 'input_validation', details: [{ type: 'video_too_large', field: 'video_url' }] });
  });
});
