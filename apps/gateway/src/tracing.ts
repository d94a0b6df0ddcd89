import { startTracing } from '@vj/observability';

// Imported first by main.ts: the HTTP and Express instrumentations patch those modules as they load.
export const tracing = startTracing('gateway');
