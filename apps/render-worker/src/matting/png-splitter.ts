// Cuts PNG files written back to back (ffmpeg's image2pipe) into one Buffer each. The reads are kept
// as they come and joined once a PNG's IEND chunk is in: a 4K picture arrives in hundreds of reads.

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// A chunk's length, type and CRC around its data.
const CHUNK_OVERHEAD = 12;
// Our own encoder's chunks: anything near this is a broken stream, not a picture.
const MAX_CHUNK_BYTES = 256 * 1024 ** 2;

export class PngSplitter {
  private reads: Buffer[] = [];
  private length = 0;
  // Where the next chunk of the PNG at the start of `reads` begins (0: its signature is next).
  private next = 0;
  // The read bytes() last looked in, and where it starts.
  private readIndex = 0;
  private readStart = 0;

  push(read: Buffer): Buffer[] {
    this.reads.push(read);
    this.length += read.length;
    const pictures: Buffer[] = [];
    for (;;) {
      if (this.next === 0) {
        if (this.length < SIGNATURE.length) break;
        if (!this.bytes(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('the encoder wrote something other than a PNG');
        this.next = SIGNATURE.length;
      }
      if (this.length < this.next + 8) break;
      const header = this.bytes(this.next, 8);
      const length = header.readUInt32BE(0);
      if (length > MAX_CHUNK_BYTES) throw new Error(`a PNG chunk of ${length} bytes`);
      const end = this.next + CHUNK_OVERHEAD + length;
      if (this.length < end) break;
      this.next = end;
      if (header.toString('latin1', 4, 8) === 'IEND') pictures.push(this.take(end));
    }
    return pictures;
  }

  // Part of a PNG is waiting for the rest.
  get partial(): boolean {
    return this.length > 0;
  }

  // `count` bytes from `start`, across the reads. Looked for from the read the last call ended in: the
  // chunks of a PNG are read in order.
  private bytes(start: number, count: number): Buffer {
    if (start < this.readStart) [this.readIndex, this.readStart] = [0, 0];
    while (start >= this.readStart + this.reads[this.readIndex].length) this.readStart += this.reads[this.readIndex++].length;
    const out = Buffer.alloc(count);
    let copied = 0;
    for (let index = this.readIndex, at = start - this.readStart; copied < count; index++, at = 0) {
      copied += this.reads[index].copy(out, copied, at, Math.min(this.reads[index].length, at + count - copied));
    }
    return out;
  }

  // The first `end` bytes as one PNG; the rest stays for the next.
  private take(end: number): Buffer {
    const joined = Buffer.concat(this.reads, this.length);
    const picture = joined.subarray(0, end);
    // Copied: the next picture must not hold this one's memory.
    const rest = joined.subarray(end);
    this.reads = rest.length > 0 ? [Buffer.from(rest)] : [];
    this.length = rest.length;
    this.next = 0;
    [this.readIndex, this.readStart] = [0, 0];
    return picture;
  }
}
