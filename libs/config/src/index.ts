export * from './common-env';
export * from './env-spec';
