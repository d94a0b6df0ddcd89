export * from './outbox-draft';
export * from './outbox-entity';
export * from './outbox-relay';
export * from './outbox-relay.lifecycle';
