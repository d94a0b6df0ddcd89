export * from './advisory-lock';
export * from './list-cursor';
