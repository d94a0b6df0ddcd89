import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { NATS_CONFIG_PATH, renderNatsConfig } from './nats-config';

// Writes deploy/nats/nats.conf from the permission catalogue; with --check only says whether it is current.
const rendered = renderNatsConfig();
const path = relative(process.cwd(), NATS_CONFIG_PATH);
let current: string | undefined;
try {
  current = readFileSync(NATS_CONFIG_PATH, 'utf8');
} catch {
  current = undefined;
}
if (process.argv.includes('--check')) {
  if (current !== rendered) {
    process.stderr.write(`${path} is out of date: run node scripts/run-ts.cjs scripts/render-nats-config.ts\n`);
    process.exitCode = 1;
  }
} else if (current === rendered) {
  process.stdout.write(`${path} is up to date\n`);
} else {
  writeFileSync(NATS_CONFIG_PATH, rendered);
  process.stdout.write(`wrote ${path}\n`);
}
