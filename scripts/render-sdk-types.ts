import { readFileSync, writeFileSync } from 'node:fs';
import { SDK_TYPES_FILE, sdkTypes } from './openapi/sdk-types';

// Writes the SDK's types from the committed OpenAPI document; with --check, only says whether they are current.
async function main(): Promise<void> {
  const rendered = await sdkTypes();
  if (process.argv.includes('--check')) {
    if (readFileSync(SDK_TYPES_FILE, 'utf8') !== rendered) {
      process.stderr.write(`${SDK_TYPES_FILE} is out of date: run node scripts/run-ts.cjs scripts/render-sdk-types.ts\n`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(SDK_TYPES_FILE, rendered);
  process.stdout.write(`wrote ${SDK_TYPES_FILE}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
