export * from './boot-nats-service';
export * from './boot-database-service';
