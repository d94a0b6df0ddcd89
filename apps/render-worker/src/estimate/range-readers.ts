import { open } from 'node:fs/promises';
import type { ReadRange } from './stated-duration';

// Byte ranges of our own object storage through a presigned GET. A server that ignores Range is read
// only for the file's start, and only up to the length asked for.
export function presignedUrlRanges(url: string, signal: AbortSignal): ReadRange {
  return async (offset, length) => {
    if (length <= 0) return new Uint8Array(0);
    const response = await fetch(url, { headers: { range: `bytes=${offset}-${offset + length - 1}` }, signal });
    // Past the end of the object.
    if (response.status === 416) {
      await response.body?.cancel();
      return new Uint8Array(0);
    }
    if (response.status !== 206 && !(response.status === 200 && offset === 0)) {
      await response.body?.cancel();
      throw new Error(`range read answered ${response.status}`);
    }
    return readAtMost(response, length);
  };
}

// Byte ranges of a local file (a URL input's fetched prefix).
export function fileRanges(path: string): ReadRange {
  return async (offset, length) => {
    const file = await open(path, 'r');
    try {
      const buffer = new Uint8Array(Math.max(0, length));
      const { bytesRead } = await file.read(buffer, 0, buffer.length, offset);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  };
}

async function readAtMost(response: Response, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  let filled = 0;
  const reader = response.body?.getReader();
  if (!reader) return out.subarray(0, 0);
  try {
    while (filled < length) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = Math.min(value.length, length - filled);
      out.set(value.subarray(0, take), filled);
      filled += take;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return out.subarray(0, filled);
}
