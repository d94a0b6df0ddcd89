import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

interface ExportedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

const ROOT = join(__dirname, '..', '..', '..');

// A stand-in OpenTelemetry collector: keeps the spans of every OTLP/HTTP JSON export it receives.
async function fakeCollector(): Promise<{ server: Server; url: string; spans: ExportedSpan[] }> {
  const spans: ExportedSpan[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[] };
      for (const resource of parsed.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans };
}

// The probe runs as a service would: a Node process of its own (see tracing-probe.fixture.ts).
async function runProbe(env: NodeJS.ProcessEnv): Promise<{ enabled: boolean; sdkLoaded: boolean; startMs: number; traceparent: string }> {
  const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'run-ts.cjs'), join(__dirname, 'tracing-probe.fixture.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

describe('tracing', () => {
  let collector: Awaited<ReturnType<typeof fakeCollector>>;

  beforeAll(async () => {
    collector = await fakeCollector();
  });

  afterAll(() => {
    collector.server.close();
  });

  it('exports over OTLP a producer span and the consumer span that continues its trace through the message headers', async () => {
    const probe = await runProbe({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
    expect(probe).toMatchObject({ enabled: true, sdkLoaded: true });
    const producer = collector.spans.find((span) => span.name.endsWith('publish'));
    const consumer = collector.spans.find((span) => span.name.endsWith('process'));
    expect(producer).toBeDefined();
    expect(consumer).toMatchObject({ traceId: producer!.traceId, parentSpanId: producer!.spanId });
    expect(probe.traceparent).toBe(`00-${producer!.traceId}-${producer!.spanId}-01`);
    process.stdout.write(`tracing on: SDK load + start ${probe.startMs.toFixed(0)} ms\n`);
  });

  it('is off without an endpoint: nothing exported, and the SDK is not even loaded', async () => {
    collector.spans.length = 0;
    const probe = await runProbe({});
    expect(probe).toMatchObject({ enabled: false, sdkLoaded: false, traceparent: '' });
    expect(collector.spans).toEqual([]);
    process.stdout.write(`tracing off: startTracing ${probe.startMs.toFixed(1)} ms\n`);
  });
});
