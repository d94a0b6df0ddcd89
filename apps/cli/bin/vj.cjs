#!/usr/bin/env node
// `npx vj ...` in this repository: runs the TypeScript entry point in place (scripts/run-ts.cjs).
const { join } = require('node:path');
process.argv.splice(2, 0, join(__dirname, '..', 'src', 'main.ts'));
require(join(__dirname, '..', '..', '..', 'scripts', 'run-ts.cjs'));
