/** @jest-environment ./test/onnx-test-environment.cjs */
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VideoBackgroundRemovalOptions } from '@vj/contracts';
import { ProcessRunner, probeMedia } from '../media';
import { listKeyframes } from '../media/keyframes';
import { durationOf, ffmpeg, FFPROBE_PATH } from '../media/testing/media-tools';
import { OnnxSegmenter } from './onnx-segmenter';
import { preparePersonModels } from './person-model';
import { removeBackground, SegmentFramesError, type MattedVideo, type RemoveBackgroundRequest } from './remove-background';
import { DEFAULT_PLATE, type PlateSnapshot } from './background-plate';
import { PlatePassError, platePass } from './plate-pass';
import { joinSegments } from './segment-join';
import { segmentPlan, segmentTimes, type Segment } from './segment-plan';
import { decodeAlpha, decodeGray, decodeRgb, decodeWebmAlpha, meanAbsoluteDifference, streamsOf, videoFrameTimes, zipEntries } from './testing/matte-tools';

// A long video matted in segments (decision 0100) and joined, against the same video matted whole:
// the real ffmpeg and the converted person model on ONNX Runtime (CPU).

const FPS = 25;
const SECONDS = 5;
const FRAMES = FPS * SECONDS;

let dir: string;
let segmenters: OnnxSegmenter[];
let input: string;
// Segments of 2 s with 1 s of warm-up; the keyframes every 40 frames move the boundaries to 40 and 80,
// and the last segment runs on to the end (45 frames, too few for a segment of their own).
let plan: Segment[];
let times: number[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vj-segments-'));
  const specs = await preparePersonModels(join(dir, 'models'));
  segmenters = await Promise.all(specs.map((spec) => OnnxSegmenter.open(spec, { executionProviders: ['cpu'], intraOpThreads: 1 })));
  input = join(dir, 'in.mp4');
  await ffmpeg([
    '-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=${FPS}:duration=${SECONDS}`,
    '-f', 'lavfi', '-t', String(SECONDS), '-i', 'sine=frequency=440:sample_rate=44100',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '40', '-pix_fmt', 'yuv420p', '-c:a', 'aac', input,
  ]);
  const index = await listKeyframes(new ProcessRunner(), { ffprobePath: FFPROBE_PATH, inputPath: input, maxSeconds: 60, maxFrames: 10_000, timeoutMs: 10_000 });
  plan = segmentPlan({ frames: index.frames, fps: FPS, keyframes: index.keyframes, segmentSeconds: 2, warmupSeconds: 1 });
  times = index.times!;
});

afterAll(async () => {
  await Promise.all(segmenters.map((segmenter) => segmenter.release()));
  await rm(dir, { recursive: true, force: true });
});

function request(options: Pick<VideoBackgroundRemovalOptions, 'output_codec' | 'refine_foreground_edges' | 'background'>, overrides: Partial<RemoveBackgroundRequest> = {}): RemoveBackgroundRequest {
  return { inputPath: input, workDir: join(dir, `work-${Math.random().toString(36).slice(2)}`), options, segmenters, maxSeconds: 60, timeoutMs: 120_000, ...overrides };
}

interface BothWays {
  whole: MattedVideo;
  joined: MattedVideo;
  wholeMattes: Uint8Array[];
  segmentMattes: Uint8Array[];
  // The kept mattes (decision 0106): the whole run's, and the segments' joined.
  wholeKept: string;
  joinedKept: string;
}

// The whole run's alphas, and the segments' delivered ones in the video's order, with the joined result;
// each run keeps its matte, and the join joins the segments'.
async function matteBothWays(options: Parameters<typeof request>[0]): Promise<BothWays> {
  const run = join(dir, `both-${Math.random().toString(36).slice(2)}`);
  await mkdir(run);
  const wholeMattes: Uint8Array[] = [];
  const wholeKept = join(run, 'whole-kept.mkv');
  const whole = await removeBackground(request(options, { keepMatteAt: wholeKept, onMatte: (index, alpha) => void (wholeMattes[index] = Uint8Array.from(alpha)) }));
  const segmentMattes: Uint8Array[] = [];
  const segments: MattedVideo[] = [];
  const keptMattes: string[] = [];
  for (const segment of plan) {
    const keepMatteAt = join(run, `segment-${segment.index}-kept.mkv`);
    keptMattes.push(keepMatteAt);
    segments.push(
      await removeBackground(
        request(options, {
          segment: { ...segment, times: segmentTimes(times, segment) },
          keepMatteAt,
          onMatte: (index, alpha) => {
            if (segment.matteFrom + index >= segment.from) segmentMattes[segment.matteFrom + index] = Uint8Array.from(alpha);
          },
        }),
      ),
    );
  }
  const { audio } = await probeMedia(new ProcessRunner(), { ffprobePath: FFPROBE_PATH, inputPath: input, timeoutMs: 10_000 });
  const joinedKept = join(run, 'joined-kept.mkv');
  const joined = await joinSegments({ inputPath: input, audio, segments, keptMattes, keepMatteAt: joinedKept, workDir: join(run, 'join'), maxSeconds: 60, timeoutMs: 60_000 });
  return { whole, joined, wholeMattes, segmentMattes, wholeKept, joinedKept };
}

describe('a long video matted in segments and joined', () => {
  it("plans the boundaries on the file's keyframes, read from its packets, each segment matted from a second before it", () => {
    expect(plan.map(({ matteFrom, from, to }) => [matteFrom, from, to])).toEqual([
      [0, 0, 40],
      [15, 40, 80],
      [55, 80, 125],
    ]);
  });

  it('gives H.264 picture and matte files with the whole run frames, timestamps and sound, the matte the segments computed', async () => {
    const { whole, joined, wholeMattes, segmentMattes, wholeKept, joinedKept } = await matteBothWays({ output_codec: 'h264', refine_foreground_edges: true });

    expect(joined).toMatchObject({ frames: FRAMES, durationSeconds: SECONDS, width: 320, height: 240 });
    // The quality figures are one run's: the same frames, and the same still samples (the pictures are),
    // their flicker the segments' mattes'.
    expect(joined.quality).toMatchObject({ frames: FRAMES, stillSamples: whole.quality!.stillSamples });
    expect(Math.abs(joined.quality!.framesWithPerson - whole.quality!.framesWithPerson)).toBeLessThanOrEqual(3);
    expect(joined.quality!.flicker).toBeCloseTo(whole.quality!.flicker, 2);
    expect(joined.files.map((file) => [file.role, file.contentType, file.fileExtension])).toEqual(whole.files.map((file) => [file.role, file.contentType, file.fileExtension]));
    const [rgb, matte] = joined.files.map((file) => file.path);
    expect(await videoFrameTimes(rgb!)).toEqual(await videoFrameTimes(whole.files[0]!.path));
    expect(await videoFrameTimes(matte!)).toEqual(await videoFrameTimes(whole.files[1]!.path));
    expect((await streamsOf(rgb!)).audio).toEqual([expect.objectContaining({ codec_name: 'aac' })]);
    expect(await durationOf(rgb!)).toBeCloseTo(await durationOf(whole.files[0]!.path), 1);
    expect((await streamsOf(matte!)).audio).toEqual([]);

    // The pictures are the whole run's too, frame for frame (both lossy encodes of the same frames).
    const [joinedPictures, wholePictures] = await Promise.all([decodeRgb(rgb!, 320, 240), decodeRgb(whole.files[0]!.path, 320, 240)]);
    expect(joinedPictures).toHaveLength(FRAMES);
    for (let i = 0; i < FRAMES; i++) expect(meanAbsoluteDifference(joinedPictures[i]!, wholePictures[i]!)).toBeLessThan(3);
    // ...and no frame is its neighbour's, at the boundaries least of all.
    for (const i of plan.slice(1).flatMap((segment) => [segment.from - 1, segment.from, segment.from + 1])) {
      const own = meanAbsoluteDifference(joinedPictures[i]!, wholePictures[i]!);
      expect(own).toBeLessThan(meanAbsoluteDifference(joinedPictures[i]!, wholePictures[i - 1]!));
      expect(own).toBeLessThan(meanAbsoluteDifference(joinedPictures[i]!, wholePictures[i + 1]!));
    }

    const decoded = await decodeGray(matte!, 320, 240);
    expect(decoded).toHaveLength(FRAMES);
    expect(segmentMattes.filter(Boolean)).toHaveLength(FRAMES);
    for (let i = 0; i < FRAMES; i++) expect(meanAbsoluteDifference(decoded[i]!, segmentMattes[i]!)).toBeLessThan(4);
    // The warm-up carries what came before: the segments' mattes are the whole run's, within a few
    // levels just after a boundary (a second of warm-up is short: bench:segment-boundaries measures more).
    const differences = wholeMattes.map((alpha, i) => meanAbsoluteDifference(alpha, segmentMattes[i]!));
    expect(differences.reduce((sum, difference) => sum + difference, 0) / FRAMES).toBeLessThan(0.5);
    expect(Math.max(...differences)).toBeLessThan(4);

    // The segments' kept mattes joined are the job's kept matte (decision 0106): the very alphas the
    // segments delivered, losslessly, at a whole run's kept matte's frame times.
    expect(joined.matteKept).toBe(true);
    expect((await streamsOf(joinedKept)).video).toEqual([expect.objectContaining({ codec_name: 'ffv1', width: 320, height: 240 })]);
    const kept = await decodeGray(joinedKept, 320, 240);
    expect(kept).toHaveLength(FRAMES);
    expect(kept.filter((alpha, i) => Buffer.compare(alpha, segmentMattes[i]!) !== 0)).toHaveLength(0);
    expect(await videoFrameTimes(joinedKept)).toEqual(await videoFrameTimes(wholeKept));

    // An export of the long job reads it as it reads a whole run's: another codec, every frame's alpha
    // the segments', the sound, and no model run.
    const noModel = segmenters.map((segmenter) => Object.assign(Object.create(segmenter) as OnnxSegmenter, { segment: () => Promise.reject(new Error('an export ran the model')) }));
    const exported = await removeBackground(request({ output_codec: 'prores', refine_foreground_edges: true }, { segmenters: noModel, fromMatte: joinedKept }));
    const alphas = await decodeAlpha(exported.files[0]!.path, 320, 240);
    expect(alphas).toHaveLength(FRAMES);
    for (let i = 0; i < FRAMES; i++) expect(meanAbsoluteDifference(alphas[i]!, segmentMattes[i]!)).toBeLessThan(1);
    expect((await streamsOf(exported.files[0]!.path)).audio).toEqual([expect.objectContaining({ codec_name: 'aac' })]);
  });

  it('keeps no matte for the job when a segment kept none', async () => {
    const segments: MattedVideo[] = [];
    for (const segment of plan) segments.push(await removeBackground(request({ output_codec: 'vp9', refine_foreground_edges: false }, { segment: { ...segment, times: segmentTimes(times, segment) } })));
    const keepMatteAt = join(dir, 'none-kept.mkv');
    const joined = await joinSegments({ inputPath: input, audio: null, segments, keptMattes: [], keepMatteAt, workDir: join(dir, 'join-none-kept'), maxSeconds: 60, timeoutMs: 60_000 });
    expect(joined.matteKept).toBe(false);
    await expect(readdir(dir)).resolves.not.toContain('none-kept.mkv');
  });

  // Read from the keyframe before it, a segment mattes the very frames it would decoding from the first.
  it.each([
    ['an MP4 with B-frames', 'mp4', ['-bf', '2']],
    ['a Matroska file', 'matroska', []],
    ['an MPEG-TS with B-frames starting at 1.4 s', 'mpegts', ['-bf', '2']],
  ])('finds a segment by time in %s', async (_name, container, codecOptions) => {
    const path = join(dir, `seek.${container}`);
    await ffmpeg(['-i', input, '-t', '5', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '40', ...codecOptions, '-an', '-f', container, path]);
    const index = await listKeyframes(new ProcessRunner(), { ffprobePath: FFPROBE_PATH, inputPath: path, maxSeconds: 60, maxFrames: 10_000, timeoutMs: 10_000 });
    expect(index.frames).toBe(125);
    const segment = { index: 2, cutFrom: 80, matteFrom: 90, from: 100, to: 115 };
    const mattesOf = async (byTime: boolean) => {
      const mattes: Uint8Array[] = [];
      const result = await removeBackground(
        request({ output_codec: 'h264', refine_foreground_edges: false }, { inputPath: path, segment: { ...segment, times: byTime ? segmentTimes(index.times!, segment) : null }, onMatte: (i, alpha) => void (mattes[i] = Uint8Array.from(alpha)) }),
      );
      expect(result.frames).toBe(15);
      return mattes;
    };
    const [byTime, byNumber] = [await mattesOf(true), await mattesOf(false)];
    expect(byTime).toHaveLength(25);
    expect(byTime.filter((alpha, i) => Buffer.compare(alpha, byNumber[i]!) !== 0)).toHaveLength(0);
    // Each frame's matte is its own: a frame too early or too late would show.
    expect(byTime.slice(1).filter((alpha, i) => Buffer.compare(alpha, byNumber[i]!) !== 0).length).toBeGreaterThan(12);
  });

  it('fails as ours, delivering nothing, when a segment does not decode to the frames its plan counted', async () => {
    const segment = { matteFrom: 110, from: 120, to: 140 };
    const failure = await removeBackground(request({ output_codec: 'vp9', refine_foreground_edges: false }, { segment })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SegmentFramesError);
    expect(failure).toMatchObject({ matted: 15, planned: 30 });
  });

  // The join alone, for the other containers (a composite is an MP4 with sound, as the H.264 picture):
  // two segments of a 3 s video, matted at the model's size.
  it('joins a VP9 WebM with alpha and a ProRes 4444 with the sound, and a PNG sequence with its WAV', async () => {
    const short = join(dir, 'short.mp4');
    await ffmpeg(['-i', input, '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '40', '-c:a', 'aac', short]);
    const { audio } = await probeMedia(new ProcessRunner(), { ffprobePath: FFPROBE_PATH, inputPath: short, timeoutMs: 10_000 });
    const index = await listKeyframes(new ProcessRunner(), { ffprobePath: FFPROBE_PATH, inputPath: short, maxSeconds: 60, maxFrames: 10_000, timeoutMs: 10_000 });
    const halves = [
      { index: 0, cutFrom: 0, matteFrom: 0, from: 0, to: 40 },
      { index: 1, cutFrom: 0, matteFrom: 25, from: 40, to: 75 },
    ];
    const joinOf = async (options: Parameters<typeof request>[0]) => {
      const segments: MattedVideo[] = [];
      for (const segment of halves) segments.push(await removeBackground(request(options, { inputPath: short, segment: { ...segment, times: segmentTimes(index.times!, segment) } })));
      return joinSegments({ inputPath: short, audio, segments, workDir: join(dir, `join-${Math.random().toString(36).slice(2)}`), maxSeconds: 60, timeoutMs: 60_000 });
    };
    const times = await videoFrameTimes(short);
    for (const [options, sound] of [
      [{ output_codec: 'vp9', refine_foreground_edges: false }, 'opus'],
      [{ output_codec: 'prores', refine_foreground_edges: false }, 'aac'],
    ] as const) {
      const joined = await joinOf(options);
      expect(joined).toMatchObject({ frames: 75, durationSeconds: 3 });
      // Opus's pre-skip can start a WebM's picture a few milliseconds in, as it does a whole run's.
      const joinedTimes = await videoFrameTimes(joined.files[0]!.path);
      expect(joinedTimes[0]).toBeLessThan(0.01);
      expect(joinedTimes.map((time) => Math.round((time - joinedTimes[0]!) * 1000) / 1000)).toEqual(times);
      expect((await streamsOf(joined.files[0]!.path)).audio).toEqual([expect.objectContaining({ codec_name: sound })]);
      if (options.output_codec === 'vp9') expect(await decodeWebmAlpha(joined.files[0]!.path, 320, 240)).toHaveLength(75);
    }

    const sequence = await joinOf({ output_codec: 'png_sequence', refine_foreground_edges: false });
    expect(sequence.files).toEqual([expect.objectContaining({ role: 'frames', contentType: 'application/zip', fileExtension: 'zip' })]);
    const entries = await zipEntries(sequence.files[0]!.path);
    expect([...entries.keys()]).toEqual([...Array.from({ length: 75 }, (_, i) => `frames/${String(i).padStart(6, '0')}.png`), 'audio.wav']);
  });
});

describe('the plate pass that carries the background plate across segments', () => {
  it('goes over one frame in five, numbered as in the whole video, and encodes nothing', async () => {
    const workDir = join(dir, 'pass-frames');
    await mkdir(workDir);
    const matted: number[] = [];
    const taken: number[] = [];
    const pass = await removeBackground(
      request(
        { output_codec: 'h264', refine_foreground_edges: true },
        { workDir, pass: { every: 5 }, onMatte: (index) => matted.push(index), onPlate: { afterFrames: [1, 6, 7, 121], take: (frame) => taken.push(frame) } },
      ),
    );
    expect(pass).toMatchObject({ files: [], frames: FRAMES / 5 });
    expect(matted).toHaveLength(FRAMES / 5);
    // Frame 7 is not one the pass sees.
    expect(taken).toEqual([1, 6, 121]);
    await expect(readdir(workDir)).resolves.toEqual([]);
  });

  it('hands each later segment the plate of the pass frames before it, trusted, and the segment mattes from it', async () => {
    const options = { output_codec: 'h264', refine_foreground_edges: true } as const;
    const starts = plan.map((segment) => segment.matteFrom);
    const progress: number[] = [];
    const handed: number[] = [];
    const plates = new Map<number, PlateSnapshot>();
    await platePass({
      ...request(options),
      segmentStarts: starts,
      onProgress: (fraction) => progress.push(fraction),
      // Each plate as the pass goes past its segment's start, before the pass ends.
      onPlate: (start, plate) => {
        handed.push(start, progress.length);
        plates.set(start, plate);
      },
    });
    expect(handed).toEqual([15, 2, 55, 10]);
    // Counted by the frames the pass sees, without an onMatte to count them (it once stayed at 0).
    expect(progress).toHaveLength(FRAMES / 5);
    expect(progress.at(-1)).toBeCloseTo(1, 5);
    // What the pass trusts after one frame arrives trusted by a segment's own count, and it knows more
    // of the picture than a pass whose plate learns as a whole run's does (each row every other frame,
    // trusted after three).
    const known = (plate: PlateSnapshot) => plate.seen.filter((count) => count >= DEFAULT_PLATE.knownAfter).length / plate.seen.length;
    const asWhole = new Map<number, PlateSnapshot>();
    await platePass({ ...request(options), segmentStarts: starts, plate: { knownAfter: DEFAULT_PLATE.knownAfter, everyRow: false }, onPlate: (start, plate) => asWhole.set(start, plate) });
    for (const [start, plate] of plates) {
      expect(plate.seen.every((count) => count === 0 || count >= DEFAULT_PLATE.knownAfter)).toBe(true);
      expect(known(plate)).toBeGreaterThan(known(asWhole.get(start)!));
    }
    const segment = plan[1]!;
    const matted = await removeBackground(request(options, { segment: { ...segment, times: segmentTimes(times, segment) }, plateSeed: plates.get(segment.matteFrom)! }));
    expect(matted.frames).toBe(segment.to - segment.from);
  });

  it('fails as ours when the video ends before a segment the pass was to hand a plate', async () => {
    const failure = await platePass({ ...request({ output_codec: 'h264', refine_foreground_edges: false }), segmentStarts: [0, 200], onPlate: () => undefined }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PlatePassError);
    expect(failure).toMatchObject({ missing: [200] });
  });
});
