import { startTracing } from '@vj/observability';

// Imported first by main.ts: the HTTP instrumentation patches the module as it loads.
export const tracing = startTracing('webhook-delivery');
