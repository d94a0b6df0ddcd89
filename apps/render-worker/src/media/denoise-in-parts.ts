import { createReadStream, createWriteStream } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { readDenoisedLoudness } from './denoised-loudness';
import { FRAME_BYTES, type DenoisePart } from './denoise-parts';
import type { LoudnessMeasurement } from './loudness';
import { joinPieces, readLowBandEnergy, removeLowBand, type LowBandEnergy } from './low-band';
import { runTogether, type CommandRunner, type ProcessCommand } from './process-runner';

export interface DenoiseInPartsRequest {
  runner: CommandRunner;
  // One part's denoiser, saving the loudness of what it writes to the meter file, what it lost in the
  // low band to the low-band file, and its stems to the stems file when there is one.
  denoiser: (meterPath: string, lowBandPath: string, stemsPath?: string) => ProcessCommand;
  // Decoded s16le PCM, read by every part's denoiser over its range.
  pcmPath: string;
  // The denoised file, written by every part at its own offset; the low band's, put together from
  // the parts' once they are done.
  rawPath: string;
  lowBandPath: string;
  // Where the parts' stems are put together, when they are kept (decision 0093).
  stemsPath?: string;
  parts: readonly DenoisePart[];
  timeoutMs: number;
  signal?: AbortSignal;
  // Denoised bytes written so far, all parts together.
  onBytes?: (total: number) => void;
}

// What the denoisers measured: one for a streamed run, one per part otherwise.
export interface PartsMeasurement {
  loudness: LoudnessMeasurement;
  lowBand: LowBandEnergy[];
}

// Runs one denoiser per part at once, each on its own core: RNNoise is single-threaded, so a long
// file's denoising takes the time of its longest part instead of the whole. Returns the loudness of
// the whole denoised file, from what each part measured of the output it kept, and each part's
// low-band energies. The first failure stops the other parts; the caller removes the files.
export async function denoiseInParts(request: DenoiseInPartsRequest): Promise<PartsMeasurement> {
  await writeFile(request.rawPath, Buffer.alloc(0));
  let written = 0;
  const count = (bytes: number): void => {
    written += bytes;
    request.onBytes?.(written);
  };
  const meters = request.parts.map((_, index) => `${request.rawPath}.${index}.loudness`);
  const lowBands = request.parts.map((_, index) => `${request.rawPath}.${index}.low`);
  const stems = request.parts.map((_, index) => request.stemsPath && `${request.rawPath}.${index}.stems`);
  try {
    await runTogether(request.signal, (stop) =>
      request.parts.map((part, index) => denoisePart(request, part, { meter: meters[index], lowBand: lowBands[index], stems: stems[index] }, stop, count)),
    );
    await joinPieces(
      request.parts.map((part, index) => ({ path: lowBands[index], start: part.dropBytes, bytes: part.keepBytes, at: part.outputStart })),
      request.lowBandPath,
    );
    // Four samples of stems for each sample of output: the same ranges, four times as wide.
    if (request.stemsPath) {
      await joinPieces(
        request.parts.map((part, index) => ({ path: stems[index] ?? '', start: 4 * part.dropBytes, bytes: 4 * part.keepBytes, at: 4 * part.outputStart })),
        request.stemsPath,
      );
    }
    const loudness = await readDenoisedLoudness(
      request.parts.map((part, index) => ({ path: meters[index], firstFrame: part.dropBytes / FRAME_BYTES, frames: Math.floor(part.keepBytes / FRAME_BYTES) })),
    );
    return { loudness, lowBand: await Promise.all(lowBands.map(readLowBandEnergy)) };
  } finally {
    await Promise.all([...meters.map((path) => rm(path, { force: true })), ...lowBands.map(removeLowBand), ...stems.map((path) => path && rm(path, { force: true }))]);
  }
}

async function denoisePart(
  request: DenoiseInPartsRequest,
  part: DenoisePart,
  paths: { meter: string; lowBand: string; stems?: string },
  signal: AbortSignal,
  count: (bytes: number) => void,
): Promise<void> {
  const kept = new ByteWindow(part.dropBytes, part.keepBytes, count);
  const writing = pipeline(kept, createWriteStream(request.rawPath, { flags: 'r+', start: part.outputStart }));
  const denoising = request.runner.run(request.denoiser(paths.meter, paths.lowBand, paths.stems), {
    timeoutMs: request.timeoutMs,
    signal,
    // end is inclusive; callers pass parts of decoded audio, never empty.
    stdin: createReadStream(request.pcmPath, { start: part.inputStart, end: part.inputEnd - 1 }),
    stdout: kept,
  });
  // Both settle: a failed denoiser ends the writer's input, a failed write fails the denoiser's output.
  const [ran, wrote] = await Promise.allSettled([denoising, writing]);
  if (ran.status === 'rejected') throw ran.reason;
  if (wrote.status === 'rejected') throw wrote.reason;
}

// Passes on `keep` bytes of its input after the first `skip`, counting what it passes; drops the rest.
class ByteWindow extends Transform {
  constructor(
    private skip: number,
    private keep: number,
    private readonly count: (bytes: number) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const skipped = Math.min(this.skip, chunk.length);
    this.skip -= skipped;
    const passed = chunk.subarray(skipped, skipped + this.keep);
    this.keep -= passed.length;
    if (passed.length > 0) this.count(passed.length);
    done(null, passed.length > 0 ? passed : undefined);
  }
}
