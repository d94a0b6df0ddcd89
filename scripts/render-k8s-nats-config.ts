import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { renderNatsConfig } from './nats-config';

// kustomize reads no file outside its own folder, so deploy/k8s/base keeps a copy of the rendered
// nats.conf (the same text as deploy/nats/nats.conf). Writes it; with --check only says whether it is
// current. test/k8s-manifests.spec.ts fails while it is stale.
const target = join(__dirname, '..', 'deploy', 'k8s', 'base', 'nats', 'nats.conf');
const path = relative(process.cwd(), target);
const rendered = renderNatsConfig();
let current: string | undefined;
try {
  current = readFileSync(target, 'utf8');
} catch {
  current = undefined;
}
if (process.argv.includes('--check')) {
  if (current !== rendered) {
    process.stderr.write(`${path} is out of date: run node scripts/run-ts.cjs scripts/render-k8s-nats-config.ts\n`);
    process.exitCode = 1;
  }
} else if (current === rendered) {
  process.stdout.write(`${path} is up to date\n`);
} else {
  writeFileSync(target, rendered);
  process.stdout.write(`wrote ${path}\n`);
}
