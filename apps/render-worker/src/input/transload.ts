import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AllowList } from './allow-list';
import type { FetchedInput } from './fetched-input';
import { pinnedLookup } from './pinned-lookup';
import { resolveWithSystemDns, type ResolvedAddress, type ResolveHost } from './resolve-host';
import { TransloadError } from './transload-error';
import { vetDestination, type DestinationPolicy } from './vet-destination';

export interface TransloadOptions {
  maxBytes: number;
  // One limit for the whole fetch: every DNS lookup, redirect and the body.
  timeoutMs: number;
  allowHosts?: AllowList;
  // Aborts the fetch (job cancelled); the abort reason is rethrown as is.
  signal?: AbortSignal;
  resolve?: ResolveHost;
}

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'video-jobs-transload/1';

// Downloads a user-supplied URL to destPath behind the SSRF guard (see vet-destination.ts).
export async function transload(url: string, destPath: string, options: TransloadOptions): Promise<FetchedInput> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  const policy = { allowList: options.allowHosts ?? AllowList.empty, resolve: options.resolve ?? resolveWithSystemDns };
  try {
    const response = await follow(parseUrl(url), policy, signal);
    return await saveBody(response, destPath, options.maxBytes, signal);
  } catch (error) {
    await rm(destPath, { force: true });
    if (options.signal?.aborted) throw options.signal.reason;
    if (deadline.aborted) throw new TransloadError('timeout', `the download did not finish within ${options.timeoutMs / 1000} s`);
    if (error instanceof TransloadError) throw error;
    throw new TransloadError('connection', `the request failed (${(error as { code?: string }).code ?? String(error)})`);
  }
}

// Redirects are followed by hand so that every hop is vetted again.
async function follow(start: URL, policy: DestinationPolicy, signal: AbortSignal): Promise<IncomingMessage> {
  let url = start;
  for (let redirects = 0; ; redirects++) {
    const target = await untilAborted(vetDestination(url, policy), signal);
    const response = await request(url, target, signal);
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return response;
    response.destroy();
    if (!REDIRECT_STATUSES.has(status)) throw new TransloadError('http_status', `${url.host} answered HTTP ${status}`);
    if (redirects === MAX_REDIRECTS) throw new TransloadError('redirect_limit', `more than ${MAX_REDIRECTS} redirects`);
    const location = response.headers.location;
    if (!location) throw new TransloadError('redirect', `${url.host} answered HTTP ${status} without a Location header`);
    url = parseUrl(location, url);
  }
}

function request(url: URL, target: ResolvedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      // No shared agent: a pooled socket could belong to an address vetted for another hop.
      { agent: false, lookup: pinnedLookup(target), signal, headers: { 'user-agent': USER_AGENT, 'accept-encoding': 'identity' } },
      resolve,
    );
    req.once('error', reject);
    req.end();
  });
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

function parseUrl(raw: string, base?: URL): URL {
  try {
    return new URL(raw, base);
  } catch {
    throw new TransloadError(base ? 'redirect' : 'invalid_url', base ? 'a redirect pointed to an invalid URL' : 'the URL is not valid');
  }
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
