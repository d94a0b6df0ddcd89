import type { JsMsg } from 'nats';

export interface KeepAlive {
  signal: AbortSignal;
  stop(): void;
}

// Sends working() every ackWait/3 so a long render is not redelivered, but only up to maxProcessingMs:
// after that a hung handler's message goes back to the stream and the signal aborts.
export function keepAlive(msg: JsMsg, ackWaitMs: number, maxProcessingMs: number): KeepAlive {
  const controller = new AbortController();
  const interval = setInterval(() => msg.working(), Math.max(100, Math.floor(ackWaitMs / 3)));
  const cap = setTimeout(() => {
    clearInterval(interval);
    controller.abort(new Error(`processing exceeded ${maxProcessingMs} ms`));
  }, maxProcessingMs);
  return {
    signal: controller.signal,
    stop() {
      clearInterval(interval);
      clearTimeout(cap);
    },
  };
}
