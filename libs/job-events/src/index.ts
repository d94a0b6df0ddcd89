export * from './event-deduplicator';
export * from './job-events-consumer';
