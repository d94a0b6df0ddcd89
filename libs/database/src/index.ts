export * from './advisory-lock';
export * from './is-uuid';
export * from './list-cursor';
export * from './row-update';
export * from './prepared-query';
export * from './database-outage';
export * from './connection-limits';
export * from './answers-queries';
