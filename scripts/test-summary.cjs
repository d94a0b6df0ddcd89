#!/usr/bin/env node
// Prints Jest's JSON summary as the one line CI reads: "N passed, N failed[, N skipped]".
const { existsSync, readFileSync } = require('node:fs');
const file = process.argv[2] ?? 'reports/jest.json';
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  process.exit(0);
}
const r = JSON.parse(readFileSync(file, 'utf8'));
// A suite that failed to load counts as a failure even though it ran no test.
const brokenSuites = r.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length;
const skipped = r.numPendingTests + r.numTodoTests;
console.log(`${r.numPassedTests} passed, ${r.numFailedTests + brokenSuites} failed${skipped ? `, ${skipped} skipped` : ''}`);
