import { connect, type NatsConnection } from 'nats';
import { natsServerOptions } from './nats-url';
import { flushOncePerLoopTurn } from './writes-per-loop-turn';

export interface ConnectNatsOptions {
  url: string;
  // Shows up in the server's connection list (`nats-server` monitoring), one name per service.
  name: string;
}

// Reconnects forever: a NATS restart must not take a service down, JetStream redelivers what was in flight.
// No async traces: the client otherwise makes two Errors (stack traces) per request for a timeout that
// rarely comes, about 6 % of the gateway's CPU on job reads; RpcClient's errors name the call instead.
// What one turn of the event loop sends goes in one write (flushOncePerLoopTurn).
export async function connectNats({ url, name }: ConnectNatsOptions): Promise<NatsConnection> {
  const nc = await connect({ ...natsServerOptions(url), name, maxReconnectAttempts: -1, reconnectTimeWait: 500, waitOnFirstConnect: true, noAsyncTraces: true });
  flushOncePerLoopTurn(nc);
  return nc;
}
