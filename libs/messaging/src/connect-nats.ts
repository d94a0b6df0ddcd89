import { connect, type NatsConnection } from 'nats';
import { natsServerOptions } from './nats-url';

export interface ConnectNatsOptions {
  url: string;
  // Shows up in the server's connection list (`nats-server` monitoring), one name per service.
  name: string;
}

// Reconnects forever: a NATS restart must not take a service down, JetStream redelivers what was in flight.
export function connectNats({ url, name }: ConnectNatsOptions): Promise<NatsConnection> {
  return connect({ ...natsServerOptions(url), name, maxReconnectAttempts: -1, reconnectTimeWait: 500, waitOnFirstConnect: true });
}
