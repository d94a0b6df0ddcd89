import type { JsMsg } from 'nats';

export interface KeepAlive {
  signal: AbortSignal;
  stop(): void;
}

// The abort reason of a handler that ran past its consumer's maxProcessingMs: recognisable, so a handler
// can tell "took too long" from a shutdown or a failure. Named AbortError like other abort reasons.
export class MaxProcessingTimeExceeded extends Error {
  override readonly name = 'AbortError';
  constructor(readonly maxProcessingMs: number) {
    super(`processing exceeded ${maxProcessingMs} ms`);
  }
}

// Sends working() every ackWait/3 so a long render is not redelivered, but only up to maxProcessingMs:
// after that a hung handler's message goes back to the stream and the signal aborts.
export function keepAlive(msg: JsMsg, ackWaitMs: number, maxProcessingMs: number): KeepAlive {
  const controller = new AbortController();
  const interval = setInterval(() => {
    try {
      msg.working();
    } catch {
      // The connection is draining or closed (shutdown): the message will be redelivered anyway.
    }
  }, Math.max(100, Math.floor(ackWaitMs / 3)));
  const cap = setTimeout(() => {
    clearInterval(interval);
    controller.abort(new MaxProcessingTimeExceeded(maxProcessingMs));
  }, maxProcessingMs);
  return {
    signal: controller.signal,
    stop() {
      clearInterval(interval);
      clearTimeout(cap);
    },
  };
}
