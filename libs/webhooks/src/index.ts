export * from './retry-schedule';
export * from './webhook-sender';
export * from './webhook-signature';
