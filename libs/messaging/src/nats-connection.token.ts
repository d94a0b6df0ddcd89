// The service's NATS connection, made by its boot before the Nest app exists, for injection.
export const NATS_CONNECTION = Symbol('NatsConnection');
