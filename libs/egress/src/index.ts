export * from './address-policy';
export * from './allow-list';
export * from './destination-refused';
export * from './pinned-lookup';
export * from './resolve-host';
export * from './vet-destination';
