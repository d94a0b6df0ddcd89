import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { pinnedLookup, vetDestination, type DestinationPolicy } from '@vj/egress';
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
  try {
    const target = await vetDestination(url, policy);
    const response = await post(url, pinnedLookup(target), request, signal);
    const body = await readCapped(response, limits.maxResponseBytes);
    const retryAfter = response.headers['retry-after'];
    return { status: response.statusCode ?? null, retryAfter: typeof retryAfter === 'string' ? retryAfter : null, error: null, responseBody: body.slice(0, KEPT_BODY_CHARS), durationMs: Date.now() - started };
  } catch (error) {
    return failed(signal.aborted ? `no answer within ${limits.timeoutMs} ms` : error instanceof Error ? error.message : String(error));
  }
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

function readCapped(response: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      const room = maxBytes - size;
      if (room > 0) chunks.push(chunk.subarray(0, room));
      size += chunk.length;
      if (size >= maxBytes) {
        response.destroy();
        resolve(Buffer.concat(chunks).toString('utf8'));
      }
    });
    response.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.once('error', (error) => (size >= maxBytes ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(error)));
  });
}
