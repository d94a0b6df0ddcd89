import { open } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { AllowList, resolveWithSystemDns, type ResolveHost } from '@vj/egress';
import { guardedGet } from './guarded-get';
import { TransloadError } from './transload-error';

export interface PrefixOptions {
  maxBytes: number;
  // Aborting stops the fetch; the abort reason is rethrown as is.
  signal: AbortSignal;
  allowHosts?: AllowList;
  resolve?: ResolveHost;
}

export interface FetchedPrefix {
  size: number;
  // The answer held the whole file, not just its start: it ended before maxBytes (a 206 saying its total).
  whole: boolean;
}

// The first maxBytes of a user-supplied URL into destPath, behind the same SSRF guard as transload:
// enough for ffprobe to read a container's header without downloading the video. The caller removes
// destPath.
export async function fetchPrefix(url: string, destPath: string, options: PrefixOptions): Promise<FetchedPrefix> {
  const policy = { allowList: options.allowHosts ?? AllowList.empty, resolve: options.resolve ?? resolveWithSystemDns };
  try {
    const response = await guardedGet(url, policy, options.signal, { range: `bytes=0-${options.maxBytes - 1}` });
    try {
      checkStartsAtZero(response);
      const { size, ended } = await savePrefix(response, destPath, options.maxBytes);
      // A 206 may stop short of what was asked for: only its total says the file ended there.
      return { size, whole: ended && (response.statusCode === 200 || rangeTotal(response) === size) };
    } finally {
      response.destroy();
    }
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    if (error instanceof TransloadError) throw error;
    throw new TransloadError('connection', `the request failed (${(error as { code?: string }).code ?? String(error)})`);
  }
}

// 200 is the whole file (a server without range support); 206 must be the part we asked for.
function checkStartsAtZero(response: IncomingMessage): void {
  const status = response.statusCode;
  if (status === 200) return;
  if (status === 206 && /^bytes 0-/.test(response.headers['content-range'] ?? '')) return;
  throw new TransloadError('http_status', `the server answered HTTP ${status} to a range request from byte 0`);
}

// "bytes 0-999/5000" -> 5000; null when the total is unknown ("*") or absent.
function rangeTotal(response: IncomingMessage): number | null {
  const total = /\/(\d+)$/.exec(response.headers['content-range'] ?? '')?.[1];
  return total === undefined ? null : Number(total);
}

async function savePrefix(response: IncomingMessage, destPath: string, maxBytes: number): Promise<{ size: number; ended: boolean }> {
  const file = await open(destPath, 'w');
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      const part = chunk.subarray(0, maxBytes - size);
      await file.write(part);
      size += part.length;
      // Leaving the loop destroys the response: a server that ignored the Range header sends no more.
      if (size >= maxBytes) return { size, ended: false };
    }
    return { size, ended: true };
  } finally {
    await file.close();
  }
}
