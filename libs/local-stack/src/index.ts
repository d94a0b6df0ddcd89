export * from './free-port';
export * from './nats-server';
export * from './postgres-cluster';
export * from './s3-server';
export * from './wait-for';
export * from './nats-cluster';
