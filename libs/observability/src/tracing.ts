import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { NodeSDK } from '@opentelemetry/sdk-node';
import type { IncomingMessage } from 'node:http';

export interface Tracing {
  enabled: boolean;
  // Exports the spans still buffered; call it on the way out.
  shutdown(): Promise<void>;
}

// Probes and scrapes every few seconds would drown the traces that matter.
const UNTRACED_PATHS = new Set(['/metrics', '/livez', '/readyz', '/healthz']);

// Tracing is off unless an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT, or the
// traces-only OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); the SDK is only loaded then, so a service that does
// not export pays nothing at startup. Off, `traceparent` still passes through: a message handled in
// one service carries its trace context on to the next. Call it before the app's modules are loaded
// (the HTTP and Express instrumentations patch them as they are required).
export function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): Tracing {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!endpoint || env.OTEL_SDK_DISABLED === 'true') {
    registerPropagation();
    return { enabled: false, shutdown: async () => undefined };
  }
  const sdk = createSdk(service);
  sdk.start();
  return { enabled: true, shutdown: () => sdk.shutdown() };
}

// W3C trace context over an AsyncLocalStorage context manager, without a tracer: what the SDK
// registers too, minus the spans. Idempotent (the API keeps the first registration).
export function registerPropagation(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

function createSdk(service: string): NodeSDK {
  // Loaded here, not at the top: 35 MB of exporters and instrumentations only a traced service needs.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { ExpressInstrumentation } = require('@opentelemetry/instrumentation-express') as typeof import('@opentelemetry/instrumentation-express');
  /* eslint-enable @typescript-eslint/no-require-imports */
  return new NodeSDK({
    serviceName: service,
    textMapPropagator: new W3CTraceContextPropagator(),
    // Traces only: metrics are Prometheus' (/metrics), logs go to stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req: IncomingMessage) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]) }),
      new ExpressInstrumentation(),
    ],
  });
}
