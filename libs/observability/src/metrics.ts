import { collectDefaultMetrics, Counter, Gauge, Histogram, register, type CounterConfiguration, type GaugeConfiguration, type HistogramConfiguration } from 'prom-client';

// One registry per process (prom-client's default). Metrics are created on first use and found again
// after: a test that boots a service twice in one process registers nothing twice.

export function counter<L extends string>(config: CounterConfiguration<L>): Counter<L> {
  return (register.getSingleMetric(config.name) as Counter<L> | undefined) ?? new Counter(config);
}

export function gauge<L extends string>(config: GaugeConfiguration<L>): Gauge<L> {
  return (register.getSingleMetric(config.name) as Gauge<L> | undefined) ?? new Gauge(config);
}

export function histogram<L extends string>(config: HistogramConfiguration<L>): Histogram<L> {
  return (register.getSingleMetric(config.name) as Histogram<L> | undefined) ?? new Histogram(config);
}

// Seconds, from a few milliseconds (a read) to ten seconds (a create that waits for a probe).
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let defaults = false;

// Process metrics (CPU, memory, event loop lag, GC), once per process.
export function collectProcessMetrics(): void {
  if (defaults) return;
  defaults = true;
  collectDefaultMetrics();
}

export function metricsText(): Promise<string> {
  return register.metrics();
}

export const METRICS_CONTENT_TYPE = register.contentType;

// Seconds since `start` (a process.hrtime.bigint()).
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}
