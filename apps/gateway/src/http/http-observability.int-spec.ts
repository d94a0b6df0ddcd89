import { SERVICES } from '@vj/contracts';
import { Logger } from '@nestjs/common';
import { createLogger, currentLogContext, NestPinoLogger, startOpsServer, type LogContext, type OpsServer } from '@vj/observability';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import type { CreatedAccount } from '../identity';
import { bearer, startGateway, type GatewayHarness } from '../../test/gateway-harness';

const VIDEO = 'https://media.example.com/clip.mp4';

describe('the gateway: request context in logs, HTTP metrics and cached /healthz', () => {
  let gw: GatewayHarness;
  let ops: OpsServer;
  let alice: CreatedAccount;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const destination = new PassThrough();
    destination.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>)));
    Logger.overrideLogger(new NestPinoLogger(createLogger('gateway', { level: 'debug', format: 'json', destination })));
    gw = await startGateway('gateway_observability', { LOG_LEVEL: 'debug' });
    ops = await startOpsServer({ port: 0 });
    alice = await gw.newAccount('alice');
  });

  afterAll(async () => {
    await ops.close();
    await gw.stop();
  });

  const metrics = async () => (await fetch(`http://127.0.0.1:${ops.port}/metrics`)).text();

  it('carries the request id and the account into the work a request does, past the body parser', async () => {
    const seen: LogContext[] = [];
    const create = gw.jobs.create.bind(gw.jobs);
    const spy = jest.spyOn(gw.jobs, 'create').mockImplementation(async (body) => (seen.push({ ...currentLogContext() }), create(body)));
    try {
      const res = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).set('x-request-id', 'req-obs-1').send({ video_url: VIDEO });
      expect(res.status).toBe(202);
      expect(seen).toEqual([{ request_id: 'req-obs-1', account_id: alice.account_id }]);
    } finally {
      spy.mockRestore();
    }
  });

  it('writes one access log line a request, with its route, status, request id and account', async () => {
    const res = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).send({ video_url: VIDEO });
    expect(res.status).toBe(202);
    const line = lines.find((l) => l.context === 'Http' && l.request_id === res.headers['x-request-id']);
    expect(line).toEqual(
      expect.objectContaining({ level: 'info', service: 'gateway', method: 'POST', route: '/v1/clean-audio-video', status: 202, account_id: alice.account_id }),
    );
    expect(line?.msg).toMatch(/^POST \/v1\/clean-audio-video 202 [\d.]+ ms$/);
  });

  it('logs successful reads at debug (clients poll them) and names the job of the path', async () => {
    const created = await request(gw.server).post('/v1/clean-audio-video').set(bearer(alice)).send({ video_url: VIDEO });
    const read = await request(gw.server).get(`/v1/clean-audio-video/${created.body.job_id}`).set(bearer(alice));
    expect(read.status).toBe(200);
    const line = lines.find((l) => l.context === 'Http' && l.request_id === read.headers['x-request-id']);
    expect(line).toEqual(expect.objectContaining({ level: 'debug', route: '/v1/clean-audio-video/:job_id', job_id: created.body.job_id }));
  });

  it('exposes request latency histograms by method, route pattern and status on /metrics', async () => {
    await request(gw.server).get('/v1/jobs').set(bearer(alice)).expect(200);
    await request(gw.server).get('/v1/jobs').expect(401);
    await request(gw.server).get('/no/such/path').expect(404);
    const text = await metrics();
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/jobs",status="200"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/v1\/jobs",status="200"\} \d+/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="POST",route="\/v1\/clean-audio-video",status="202"\} [1-9]/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/v1\/clean-audio-video\/:job_id",status="200"\} 1/);
    // Refused before routing, or no route at all: one label each, never the raw path.
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="unrouted",status="401"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} 1/);
    expect(text).not.toContain('/no/such/path');
  });

  it('answers /healthz from a one-second cache: a burst of probes pings each service once', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const ping = jest.spyOn(gw.serviceHealth, 'ping');
    try {
      const answers = await Promise.all(Array.from({ length: 10 }, () => request(gw.server).get('/healthz')));
      expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
      expect(ping).toHaveBeenCalledTimes(SERVICES.length);
    } finally {
      ping.mockRestore();
    }
  });
});
