export * from './advisory-lock';
