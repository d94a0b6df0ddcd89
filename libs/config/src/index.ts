export * from './common-env';
export * from './env-spec';
export * from './log-levels';
