import { createWriteStream, type WriteStream } from 'node:fs';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { MediaError } from '../media/media-error';
import { PngSplitter } from './png-splitter';

// A PNG sequence delivered as one ZIP (decision 0085): the encoder writes PNG files back to back on
// its stdout (image2pipe); each becomes `frames/<frame index, 6 digits>.png`, stored as it is (PNG is
// compressed already), and the sound `audio.wav` at the end. No picture is written to disk but into
// the ZIP, none is held once written, and the ZIP stops at `maxBytes`: past it the writes fail with
// ResultTooLargeError.

// Pictures handed to the ZIP and not yet written to the file, at most: the encoder waits past it.
const AHEAD_BYTES = 64 * 1024 ** 2;
const NAME_DIGITS = 6;

export class ResultTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the result reached its limit of ${maxBytes} bytes`);
    this.name = 'ResultTooLargeError';
  }
}

// Bytes passed on up to `maxBytes`, then ResultTooLargeError; `onStored` hears the count so far.
export function capped(maxBytes: number, onStored: (stored: number) => void = () => undefined): Transform {
  let stored = 0;
  return new Transform({
    transform: (chunk: Buffer, _encoding, done) => {
      stored += chunk.length;
      onStored(stored);
      done(stored >= maxBytes ? new ResultTooLargeError(maxBytes) : null, chunk);
    },
  });
}

// The job fails with input_validation when a result file reaches the limit.
export function resultTooLarge(maxBytes: number): MediaError {
  return new MediaError('input_validation', 'The result of this video is too large', [
    { type: 'result_too_large', message: `A result file reached the limit of ${maxBytes} bytes: choose another output_codec, or a shorter or smaller video`, field: 'output_codec' },
  ]);
}

export class PngSequenceZip {
  // The encoder's stdout.
  readonly frames: Writable;
  private readonly zip = new ZipFile();
  private readonly written: Promise<void>;
  private readonly file: WriteStream;
  private pictures = 0;
  private added = 0;
  private stored = 0;
  private failure: Error | null = null;
  private waiting: (() => void)[] = [];

  constructor(path: string, maxBytes: number) {
    this.file = createWriteStream(path);
    const counted = capped(maxBytes, (stored) => {
      this.stored = stored;
      this.wake();
    });
    // A file yazl cannot read (the WAV) fails the archive instead of the process.
    this.zip.on('error', (error: Error) => (this.zip.outputStream as Readable).destroy(error));
    this.written = pipeline(this.zip.outputStream, counted, this.file).catch((error: unknown) => {
      this.failure ??= error instanceof Error ? error : new Error(String(error));
      this.wake();
      throw this.failure;
    });
    // Awaited by finish(); a failure shows in the writes until then.
    this.written.catch(() => undefined);
    const splitter = new PngSplitter();
    this.frames = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        try {
          for (const picture of splitter.push(chunk)) this.add(picture);
        } catch (error) {
          return done(error as Error);
        }
        this.untilRoom().then(() => done(this.failure), done);
      },
      final: (done) => done(splitter.partial ? new Error('the encoder ended in the middle of a PNG') : this.failure),
    });
  }

  // How many pictures the ZIP holds.
  get frameCount(): number {
    return this.pictures;
  }

  // Closes the ZIP once the encoder is done, with `audioPath`'s WAV when there is one.
  async finish(audioPath: string | null): Promise<void> {
    if (this.failure) throw this.failure;
    if (audioPath) this.zip.addFile(audioPath, 'audio.wav', { compress: false });
    this.zip.end();
    await this.written;
  }

  // Lets go of the file after a failure (the caller removes it).
  abort(): void {
    this.file.destroy();
  }

  // Handed over as a stream that lets go of the picture once yazl reads it: yazl keeps each entry
  // (for the central directory) with what made it, and a buffer added whole stays until the end.
  private add(picture: Buffer): void {
    if (this.failure) return;
    let held: Buffer | null = picture;
    this.zip.addReadStreamLazy(`frames/${String(this.pictures).padStart(NAME_DIGITS, '0')}.png`, { compress: false }, (give) => {
      const stream = Readable.from([held as Buffer]);
      held = null;
      give(null, stream);
    });
    this.pictures++;
    this.added += picture.length;
  }

  private async untilRoom(): Promise<void> {
    while (!this.failure && this.added - this.stored > AHEAD_BYTES) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    waiting.forEach((resolve) => resolve());
  }
}
