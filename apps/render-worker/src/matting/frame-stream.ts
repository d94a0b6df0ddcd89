import { AbortError } from '../media/media-error';
import type { Readable, Writable } from 'node:stream';

// Cuts a raw video stream into whole frames, each in a fresh buffer (a caller may keep one while it
// reads the next). A cut-off last frame is dropped.
export async function* readFrames(stream: Readable, frameBytes: number): AsyncGenerator<Buffer> {
  let frame = Buffer.allocUnsafe(frameBytes);
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
        frame = Buffer.allocUnsafe(frameBytes);
        filled = 0;
      }
    }
  }
}

// Writes with back-pressure: waits for the reader when the stream's buffer is full, and fails when
// the stream closes first (its reader is gone) rather than waiting for ever.
export function writeFrame(stream: Writable, frame: Uint8Array, signal: AbortSignal): Promise<void> {
  return writeFrames([{ stream, frame, maxBytes: Infinity }], signal);
}

// Frames written to several inputs of one reader that may take one input ahead of the others: write
// each, then wait until at least one has room and none holds more than `maxBytes` unread, failing like
// writeFrame. One set of listeners per wait, however far apart the inputs are.
export async function writeFrames(writes: readonly { stream: Writable; frame: Uint8Array; maxBytes: number }[], signal: AbortSignal): Promise<void> {
  for (const { stream, frame } of writes) stream.write(frame);
  const ready = () => writes.some(({ stream }) => !stream.writableNeedDrain) && writes.every(({ stream, maxBytes }) => stream.writableLength <= maxBytes);
  while (!ready()) {
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error): void => {
        for (const { stream } of writes) stream.off('drain', onDrain).off('close', onClose);
        signal.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve();
      };
      const onDrain = (): void => settle();
      const onClose = (): void => settle(new Error('The encoder stopped reading before every frame was written'));
      const onAbort = (): void => settle(new AbortError('The frame was not written: stopped', { cause: signal.reason }));
      if (signal.aborted) return onAbort();
      for (const { stream } of writes) stream.on('drain', onDrain).on('close', onClose);
      signal.addEventListener('abort', onAbort);
    });
  }
}
