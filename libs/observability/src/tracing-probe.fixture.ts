// Run by tracing.int-spec.ts in a child process (the OTLP exporter loads its HTTP agent with a dynamic
// import(), which Jest's module system refuses): starts tracing as a service does, sends one message's
// worth of spans, flushes, and prints the SDK's load and start time.
import { startTracing } from './tracing';

const started = process.hrtime.bigint();
const tracing = startTracing('trace-probe');
const startMs = Number(process.hrtime.bigint() - started) / 1e6;

// Loaded after the SDK started, as in main.ts.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { inSpan, outgoingHeaders, runInMessageContext, SpanKind } = require('./message-context') as typeof import('./message-context');

async function main(): Promise<void> {
  const headers = await inSpan({ name: 'vj.work.v1.clean-audio-video publish', kind: SpanKind.PRODUCER }, async () => outgoingHeaders({ job_id: 'j1' }));
  await runInMessageContext(headers, { name: 'vj.work.v1.clean-audio-video process', kind: SpanKind.CONSUMER }, async () => undefined);
  await tracing.shutdown();
  const sdkLoaded = Object.keys(require.cache).some((path) => path.includes('@opentelemetry/sdk-node'));
  process.stdout.write(`${JSON.stringify({ enabled: tracing.enabled, sdkLoaded, startMs, traceparent: headers.get('traceparent') })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
