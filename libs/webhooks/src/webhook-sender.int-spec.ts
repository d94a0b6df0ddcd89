import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AllowList, resolveWithSystemDns, type DestinationPolicy } from '@vj/egress';
import { Webhook } from 'standardwebhooks';
import { sendWebhook } from './webhook-sender';
import { signWebhook } from './webhook-signature';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

// A loopback receiver that answers each request with the next handler in line (the last repeats).
async function receiver(...answers: ((res: ServerResponse) => void)[]) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      answers[Math.min(received.length - 1, answers.length - 1)](res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const allowLoopback: DestinationPolicy = { allowList: AllowList.parse('127.0.0.1'), resolve: resolveWithSystemDns };
const guarded: DestinationPolicy = { allowList: AllowList.empty, resolve: resolveWithSystemDns };
const limits = { timeoutMs: 2_000, maxResponseBytes: 4_096 };

describe('sendWebhook', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const body = JSON.stringify({ type: 'job.completed', timestamp: new Date().toISOString(), data: { job_id: 'j1' } });
  const request = (url: string) => ({ url, body, headers: signWebhook([secret], 'msg_1', new Date(), body) });

  it('POSTs the signed JSON body, which the receiver verifies with standardwebhooks', async () => {
    const hook = await receiver((res) => res.writeHead(200).end('ok'));
    try {
      const result = await sendWebhook(request(hook.url), allowLoopback, limits);
      expect(result).toMatchObject({ status: 200, error: null, responseBody: 'ok' });
      const [got] = hook.received;
      expect(got.headers['content-type']).toBe('application/json');
      expect(new Webhook(secret).verify(got.body, got.headers as Record<string, string>)).toEqual(JSON.parse(body));
    } finally {
      await hook.close();
    }
  });

  it('reports the status and Retry-After of a refusal, and never follows a redirect', async () => {
    const target = await receiver((res) => res.writeHead(200).end());
    const hook = await receiver(
      (res) => res.writeHead(429, { 'retry-after': '30' }).end('slow down'),
      (res) => res.writeHead(302, { location: target.url }).end(),
    );
    try {
      expect(await sendWebhook(request(hook.url), allowLoopback, limits)).toMatchObject({ status: 429, retryAfter: '30', responseBody: 'slow down' });
      expect(await sendWebhook(request(hook.url), allowLoopback, limits)).toMatchObject({ status: 302 });
      expect(target.received).toHaveLength(0);
    } finally {
      await Promise.all([hook.close(), target.close()]);
    }
  });

  it('reads at most the response cap, gives up on a receiver that does not answer in time, and keeps a 2xx whose body stalls', async () => {
    const hook = await receiver(
      (res) => res.writeHead(200).end('x'.repeat(1_000_000)),
      () => undefined,
      (res) => res.writeHead(202).write('partial'),
    );
    try {
      const big = await sendWebhook(request(hook.url), allowLoopback, limits);
      expect(big.status).toBe(200);
      expect(big.responseBody.length).toBeLessThanOrEqual(1024);
      const slow = await sendWebhook(request(hook.url), allowLoopback, { ...limits, timeoutMs: 300 });
      expect(slow).toMatchObject({ status: null, error: 'no answer within 300 ms' });
      expect(slow.durationMs).toBeLessThan(2_000);
      expect(await sendWebhook(request(hook.url), allowLoopback, { ...limits, timeoutMs: 300 })).toMatchObject({ status: 202, error: null, responseBody: 'partial' });
    } finally {
      await hook.close();
    }
  });

  it('never contacts a private address that is not allowed', async () => {
    const hook = await receiver((res) => res.writeHead(200).end());
    try {
      const result = await sendWebhook(request(hook.url), guarded, limits);
      expect(result.status).toBeNull();
      // The rule only: where a name points inside the network is not the account's to learn.
      expect(result.error).toBe('refused by the SSRF guard (blocked_address)');
      expect(await sendWebhook(request('http://metadata.google.internal/'), guarded, limits)).toMatchObject({ status: null });
      expect(await sendWebhook(request('file:///etc/passwd'), guarded, limits)).toMatchObject({ status: null });
      expect(hook.received).toHaveLength(0);
    } finally {
      await hook.close();
    }
  });
});
