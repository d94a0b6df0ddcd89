#!/usr/bin/env node
// Runs a TypeScript entry point in place: swc strips types (with decorator metadata for NestJS DI);
// `npm run typecheck` is what checks them.
process.env.SWC_NODE_PROJECT ??= require('node:path').join(__dirname, '..', 'tsconfig.base.json');
require('@swc-node/register');
const entry = process.argv[2];
if (!entry) {
  console.error('usage: run-ts.cjs <entry.ts> [args...]');
  process.exit(2);
}
process.argv.splice(1, 1);
require(require('node:path').resolve(entry));
