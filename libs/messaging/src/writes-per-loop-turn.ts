import type { NatsConnection } from 'nats';

// The part of nats.js's connection this reaches into: its protocol handler's flush of what is queued.
interface ProtocolHandler {
  flushPending(): void;
}

// nats.js writes what a connection has queued in a microtask after the first message, so each I/O
// callback that sends (an HTTP request asking the jobs service, a reply, an ack) costs a socket write
// of its own, and the server a read. On these machines a write to a local socket is the largest single
// cost of a message. This defers the flush to the end of the event loop's turn (setImmediate): what
// every callback of one turn sends goes in one write, in the order it was sent; an idle connection
// waits for nothing (the turn ends at once). Everything that flushed before still flushes (the
// connection's own flush, a reconnect), one turn later at most.
// Under saturating reads of a job it cut the jobs service's CPU a read to about a third and
// nats-server's to a fifth (decision 0059). Returns false where the client's internals are not as
// expected (another nats.js version): the connection then works as the library made it, unbatched.
export function flushOncePerLoopTurn(nc: NatsConnection): boolean {
  const protocol = (nc as unknown as { protocol?: Partial<ProtocolHandler> }).protocol;
  if (typeof protocol?.flushPending !== 'function') return false;
  const flushNow = protocol.flushPending.bind(protocol);
  let due = false;
  protocol.flushPending = () => {
    if (due) return;
    due = true;
    setImmediate(() => {
      due = false;
      flushNow();
    });
  };
  return true;
}
