import { Agent, request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

// Load at a fixed rate, open loop: request i is sent at start + i / rate, whatever became of the ones
// before it, each on a connection of its own when the others are busy. autocannon's rate cannot do
// this: each connection sends its share of a second back to back at the start of the second, then
// waits (autocannon issue #174), so its "100/s over 20 connections" is a burst of 100 requests 20 at a
// time every second, and its latencies are those of the burst. Latency counts from the moment a request
// was due, so a load generator that fell behind shows as latency, never as fewer requests. Node's http
// client rather than fetch: fetch cost this process 1.8 ms of CPU a request, the http client 0.8, and
// the stack under test shares this machine's CPU.

export interface FixedRateRequest {
  url: string;
  method: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface FixedRateResult {
  // Milliseconds from each answered request's due time to the end of its answer, as they came.
  latencies: number[];
  ok: number;
  non2xx: number;
  // No HTTP answer: the connection was refused, reset or closed, or the answer took past the timeout.
  errors: number;
  seconds: number;
}

export interface FixedRateLoad {
  rate: number;
  // Either a duration or a number of requests.
  seconds?: number;
  amount?: number;
  next(): FixedRateRequest;
  // autocannon's default: an answer later than this counts as an error.
  timeoutMs?: number;
}

export async function fixedRate(load: FixedRateLoad): Promise<FixedRateResult> {
  const total = load.amount ?? Math.round(load.rate * (load.seconds ?? 5));
  const timeoutMs = load.timeoutMs ?? 10_000;
  const result: FixedRateResult = { latencies: [], ok: 0, non2xx: 0, errors: 0, seconds: 0 };
  // Kept-alive connections, as many as there are requests in flight.
  const agent = new Agent({ keepAlive: true });
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  try {
    for (let i = 0; i < total; i++) {
      const due = started + (i * 1000) / load.rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      inFlight.push(send(agent, load.next(), due, timeoutMs, result));
    }
    await Promise.all(inFlight);
  } finally {
    agent.destroy();
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

// Counts the answer, or its absence, into `result` once; never fails.
function send(agent: Agent, request: FixedRateRequest, due: number, timeoutMs: number, result: FixedRateResult): Promise<void> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (status: number | 'error') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (status === 'error') result.errors++;
      else {
        result.latencies.push(performance.now() - due);
        if (status >= 200 && status < 300) result.ok++;
        else result.non2xx++;
      }
      resolve();
    };
    const headers = { ...request.headers, ...(request.body !== undefined && { 'content-length': String(Buffer.byteLength(request.body)) }) };
    const req = httpRequest(request.url, { method: request.method, headers, agent }, (res) => {
      res.on('data', () => undefined);
      res.once('error', () => settle('error'));
      res.once('end', () => settle(res.statusCode ?? 0));
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
    req.once('error', () => settle('error'));
    req.end(request.body);
  });
}
