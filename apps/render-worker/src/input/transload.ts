import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AllowList, resolveWithSystemDns, type ResolveHost } from '@vj/egress';
import type { FetchedInput } from './fetched-input';
import { guardedGet } from './guarded-get';
import { TransloadError } from './transload-error';

export interface TransloadOptions {
  maxBytes: number;
  // One limit for the whole fetch: every DNS lookup, redirect and the body.
  timeoutMs: number;
  allowHosts?: AllowList;
  // Aborts the fetch (job cancelled); the abort reason is rethrown as is.
  signal?: AbortSignal;
  resolve?: ResolveHost;
}

// Downloads a user-supplied URL to destPath behind the SSRF guard (see vet-destination.ts).
export async function transload(url: string, destPath: string, options: TransloadOptions): Promise<FetchedInput> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const policy = { allowList: options.allowHosts ?? AllowList.empty, resolve: options.resolve ?? resolveWithSystemDns };
  try {
    const response = await guardedGet(url, policy, signal);
    return await saveBody(response, destPath, options.maxBytes, signal);
  } catch (error) {
    await rm(destPath, { force: true });
    if (options.signal?.aborted) throw options.signal.reason;
    if (deadline.aborted) throw new TransloadError('timeout', `the download did not finish within ${options.timeoutMs / 1000} s`);
    if (error instanceof TransloadError) throw error;
    throw new TransloadError('connection', `the request failed (${(error as { code?: string }).code ?? String(error)})`);
  }
}

async function saveBody(response: IncomingMessage, destPath: string, maxBytes: number, signal: AbortSignal): Promise<FetchedInput> {
  const declared = Number(response.headers['content-length']);
  if (declared > maxBytes) {
    response.destroy();
    throw new TransloadError('too_large', `the file is ${declared} bytes, more than the limit of ${maxBytes}`);
  }
  // Servers can lie about or omit Content-Length: the bytes themselves are counted too.
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new TransloadError('too_large', `the file is larger than the limit of ${maxBytes} bytes`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(response, meter, createWriteStream(destPath), { signal });
  return { path: destPath, size, sha256: hash.digest('hex') };
}
