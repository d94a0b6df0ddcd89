#!/usr/bin/env node
// Prints Jest's JSON summaries as the one line CI reads: "N passed, N failed[, N skipped]". Every report
// named is added up (the suite on Node 24, then its unit level again on this machine's node); a report
// that was expected but is missing counts as a failure.
const { existsSync, readFileSync } = require('node:fs');
const files = process.argv.length > 2 ? process.argv.slice(2) : ['reports/jest.json'];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files) {
  if (!existsSync(file)) {
    failed += 1;
    continue;
  }
  const r = JSON.parse(readFileSync(file, 'utf8'));
  // A suite that failed to load counts as a failure even though it ran no test.
  const brokenSuites = r.testResults.filter((s) => s.status === 'failed' && s.assertionResults.length === 0).length;
  passed += r.numPassedTests;
  failed += r.numFailedTests + brokenSuites;
  skipped += r.numPendingTests + r.numTodoTests;
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
