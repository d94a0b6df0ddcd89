import type { Msg } from 'nats';

// A reply computed while the connection started draining (shutdown) cannot be sent; that must not
// become an unhandled error that kills the process. The requester times out and retries.
export function respondQuietly(msg: Msg, data: Uint8Array): void {
  try {
    msg.respond(data);
  } catch {
    // connection draining or closed
  }
}
