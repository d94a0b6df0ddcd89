export * from './advisory-lock';
export * from './list-cursor';
export * from './row-update';
export * from './prepared-query';
