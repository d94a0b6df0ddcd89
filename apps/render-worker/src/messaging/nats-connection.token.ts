export const NATS_CONNECTION = Symbol('NatsConnection');
