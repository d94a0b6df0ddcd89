import { readFileSync, writeFileSync } from 'node:fs';
import { ASYNCAPI_PATH, asyncApiDocument } from './asyncapi/asyncapi-document';

// Writes the AsyncAPI document; with --check, only says whether the file is current.
const { version } = JSON.parse(readFileSync(`${__dirname}/../package.json`, 'utf8')) as { version: string };
const rendered = `${JSON.stringify(asyncApiDocument(version), null, 2)}\n`;
if (process.argv.includes('--check')) {
  if (readFileSync(ASYNCAPI_PATH, 'utf8') !== rendered) {
    process.stderr.write(`${ASYNCAPI_PATH} is out of date: run node scripts/run-ts.cjs scripts/render-asyncapi.ts\n`);
    process.exit(1);
  }
} else {
  writeFileSync(ASYNCAPI_PATH, rendered);
  process.stdout.write(`wrote ${ASYNCAPI_PATH}\n`);
}
