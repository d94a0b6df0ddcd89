import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { DestinationRefused, pinnedLookup, vetDestination, type DestinationPolicy } from '@vj/egress';
import type { SignedHeaders } from './webhook-signature';

export interface WebhookRequest {
  url: string;
  body: string;
  headers: SignedHeaders;
}

export interface SenderLimits {
  timeoutMs: number;
  // The most of a response body read; the rest is dropped with the connection.
  maxResponseBytes: number;
}

// What one attempt came to, as it is recorded and shown to the account (GET .../deliveries).
export interface AttemptResult {
  status: number | null;
  retryAfter: string | null;
  // Why no status: refused by the SSRF guard, DNS, connection, timeout.
  error: string | null;
  // The start of the response body, for the account to see what its receiver said.
  responseBody: string;
  durationMs: number;
}

const USER_AGENT = 'video-jobs-webhooks/1';
const KEPT_BODY_CHARS = 1024;

// POSTs one signed delivery through the same SSRF guard as transloads (every address of the name
// vetted, the socket pinned to the vetted one), with a time limit, no redirect followed (a 3xx is a
// failed attempt) and a cap on what is read back. Never throws: every outcome is an AttemptResult.
export async function sendWebhook(request: WebhookRequest, policy: DestinationPolicy, limits: SenderLimits): Promise<AttemptResult> {
  const started = Date.now();
  const failed = (error: string): AttemptResult => ({ status: null, retryAfter: null, error, responseBody: '', durationMs: Date.now() - started });
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return failed('the endpoint URL is not valid');
  }
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: IncomingMessage;
  try {
    const target = await untilAborted(vetDestination(url, policy), signal);
    response = await post(url, pinnedLookup(target), request, signal);
  } catch (error) {
    // The guard's rule only: the addresses a name resolves to inside our network are not the account's to see.
    if (error instanceof DestinationRefused) return failed(`refused by the SSRF guard (${error.rule})`);
    return failed(signal.aborted ? `no answer within ${limits.timeoutMs} ms` : error instanceof Error ? error.message : String(error));
  }
  // The status is the receiver's answer: a body that stalls or overflows changes nothing about it.
  const body = await readCapped(response, limits.maxResponseBytes);
  const retryAfter = response.headers['retry-after'];
  return {
    status: response.statusCode ?? null,
    retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
    error: null,
    responseBody: body.slice(0, KEPT_BODY_CHARS),
    durationMs: Date.now() - started,
  };
}

// DNS is not bound by the request's signal: a slow name server must not hold an attempt past its limit.
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function post(url: URL, lookup: ReturnType<typeof pinnedLookup>, request: WebhookRequest, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'POST',
        // No shared agent: a pooled socket could belong to an address vetted for another endpoint.
        agent: false,
        lookup,
        signal,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(request.body), 'user-agent': USER_AGENT, ...request.headers },
      },
      resolve,
    );
    req.once('error', reject);
    req.end(request.body);
  });
}

// What the receiver sent, up to maxBytes; never rejects: a stalled or broken body ends what was read.
function readCapped(response: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).toString('utf8'));
    response.on('data', (chunk: Buffer) => {
      const room = maxBytes - size;
      if (room > 0) chunks.push(chunk.subarray(0, room));
      size += chunk.length;
      if (size >= maxBytes) {
        response.destroy();
        done();
      }
    });
    response.once('end', done);
    response.once('close', done);
    response.on('error', done);
  });
}
