import { readFileSync, writeFileSync } from 'node:fs';
import { OPENAPI_FILE, renderOpenApi } from './openapi/openapi-document';

// Writes the OpenAPI document; with --check, only says whether the file is current.
async function main(): Promise<void> {
  const rendered = await renderOpenApi();
  if (process.argv.includes('--check')) {
    if (readFileSync(OPENAPI_FILE, 'utf8') !== rendered) {
      process.stderr.write(`${OPENAPI_FILE} is out of date: run node scripts/run-ts.cjs scripts/render-openapi.ts\n`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(OPENAPI_FILE, rendered);
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
