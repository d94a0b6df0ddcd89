import { createWriteStream, type WriteStream } from 'node:fs';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';

// A PNG sequence delivered as one ZIP (decision 0085): the encoder writes PNG files back to back on
// its stdout (image2pipe); each becomes `frames/<frame index, 6 digits>.png`, stored as it is (PNG is
// compressed already), and the sound `audio.wav` at the end. Nothing lands on disk but the ZIP, and
// it stops at `maxBytes`: past it the writes fail with ResultTooLargeError.

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// A chunk's length, type and CRC around its data.
const CHUNK_OVERHEAD = 12;
// Our own encoder's chunks: anything near this is a broken stream, not a picture.
const MAX_CHUNK_BYTES = 256 * 1024 ** 2;
// Pictures handed to the ZIP and not yet written to the file, at most: the encoder waits past it.
const AHEAD_BYTES = 64 * 1024 ** 2;
const NAME_DIGITS = 6;

export class ResultTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the result reached its limit of ${maxBytes} bytes`);
    this.name = 'ResultTooLargeError';
  }
}

// Cuts PNG files written back to back into one Buffer each.
export class PngSplitter {
  private pending: Buffer = Buffer.alloc(0);
  // Where the next chunk of the PNG at the start of `pending` begins (0: its signature is next).
  private next = 0;

  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const pictures: Buffer[] = [];
    for (;;) {
      if (this.next === 0) {
        if (this.pending.length < SIGNATURE.length) break;
        if (!this.pending.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('the encoder wrote something other than a PNG');
        this.next = SIGNATURE.length;
      }
      if (this.pending.length < this.next + 8) break;
      const length = this.pending.readUInt32BE(this.next);
      if (length > MAX_CHUNK_BYTES) throw new Error(`a PNG chunk of ${length} bytes`);
      const end = this.next + CHUNK_OVERHEAD + length;
      if (this.pending.length < end) break;
      const type = this.pending.toString('latin1', this.next + 4, this.next + 8);
      this.next = end;
      if (type !== 'IEND') continue;
      pictures.push(Buffer.from(this.pending.subarray(0, end)));
      this.pending = this.pending.subarray(end);
      this.next = 0;
    }
    return pictures;
  }

  // Part of a PNG is waiting for the rest.
  get partial(): boolean {
    return this.pending.length > 0;
  }
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
    const counted = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.stored += chunk.length;
        this.wake();
        done(this.stored >= maxBytes ? new ResultTooLargeError(maxBytes) : null, chunk);
      },
    });
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
    if (audioPath) this.zip.addFile(audioPath, 'audio.wav', { compress: false });
    this.zip.end();
    await this.written;
  }

  // Lets go of the file after a failure (the caller removes it).
  abort(): void {
    this.file.destroy();
  }

  private add(picture: Buffer): void {
    this.zip.addBuffer(picture, `frames/${String(this.pictures).padStart(NAME_DIGITS, '0')}.png`, { compress: false });
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
