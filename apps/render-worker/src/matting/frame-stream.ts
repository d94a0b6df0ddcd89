import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';

// Cuts a raw video stream into whole frames. Each frame gets a fresh buffer of `bufferBytes`
// (at least `frameBytes`): the frame fills its start and the caller may add planes after it, and a
// buffer handed on to a writer is never reused. A cut-off last frame is dropped.
export async function* readFrames(stream: Readable, frameBytes: number, bufferBytes = frameBytes): AsyncGenerator<Buffer> {
  let frame = Buffer.allocUnsafe(bufferBytes);
  let filled = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let offset = 0;
    while (offset < chunk.length) {
      const taken = Math.min(frameBytes - filled, chunk.length - offset);
      chunk.copy(frame, filled, offset, offset + taken);
      filled += taken;
      offset += taken;
      if (filled === frameBytes) {
        yield frame;
        frame = Buffer.allocUnsafe(bufferBytes);
        filled = 0;
      }
    }
  }
}

// Writes with back-pressure: waits for the reader when the stream's buffer is full.
export async function writeFrame(stream: Writable, frame: Buffer, signal: AbortSignal): Promise<void> {
  if (!stream.write(frame)) await once(stream, 'drain', { signal });
}
