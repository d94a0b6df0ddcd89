import { Logger } from '@nestjs/common';

export interface StopSteps {
  // The service's own shutdown: stop taking work, finish or hand back what runs, close connections.
  stop(signal: string): Promise<void>;
  // Then the ops server and the tracer (its buffered spans are flushed), which must outlive the service.
  ops: { close(): Promise<void> };
  tracing: { shutdown(): Promise<void> };
}

// Exits on the next turn of the event loop, so what the last steps sent in this one (a nak, a reply:
// NATS connections write once per turn, decision 0059) is written before the process ends.
const exitSoon = (code: number) => void setImmediate(() => process.exit(code));

// SIGTERM or SIGINT stops the service once, in order, and exits: 0 when every step finished, else 1.
export function stopOnSignals(service: string, steps: StopSteps): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    new Logger(service).log(`${signal}: shutting down`);
    steps
      .stop(signal)
      .then(() => Promise.all([steps.ops.close(), steps.tracing.shutdown()]))
      .then(
        () => exitSoon(0),
        (error: unknown) => {
          new Logger(service).error(`shutdown failed: ${String(error)}`);
          exitSoon(1);
        },
      );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
