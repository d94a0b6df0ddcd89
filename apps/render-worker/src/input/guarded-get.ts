import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { DestinationRefused, pinnedLookup, vetDestination, type DestinationPolicy, type ResolvedAddress } from '@vj/egress';
import { TransloadError } from './transload-error';

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const USER_AGENT = 'video-jobs-transload/1';

// GET of a user-supplied URL behind the SSRF guard (see vet-destination.ts): resolves with the first 2xx
// answer, its body unread. Redirects are followed by hand so that every hop is vetted again.
export async function guardedGet(
  rawUrl: string,
  policy: DestinationPolicy,
  signal: AbortSignal,
  headers: Readonly<Record<string, string>> = {},
): Promise<IncomingMessage> {
  let url = parseUrl(rawUrl);
  for (let redirects = 0; ; redirects++) {
    const target = await untilAborted(vetTransload(url, policy), signal);
    const response = await request(url, target, signal, headers);
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

// The guard's refusal is the job's transload_failed, with the rule that refused it.
async function vetTransload(url: URL, policy: DestinationPolicy): Promise<ResolvedAddress> {
  try {
    return await vetDestination(url, policy);
  } catch (error) {
    if (error instanceof DestinationRefused) throw new TransloadError(error.rule, error.message);
    throw error;
  }
}

function request(url: URL, target: ResolvedAddress, signal: AbortSignal, headers: Readonly<Record<string, string>>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      // No shared agent: a pooled socket could belong to an address vetted for another hop.
      { agent: false, lookup: pinnedLookup(target), signal, headers: { 'user-agent': USER_AGENT, 'accept-encoding': 'identity', ...headers } },
      resolve,
    );
    req.once('error', reject);
    req.end();
  });
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
