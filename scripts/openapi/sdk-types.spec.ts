import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');

describe("the SDK's generated types", () => {
  // As a child process: openapi-typescript loads ES modules Jest's CommonJS runtime cannot require.
  it('are current with the committed OpenAPI document (node scripts/run-ts.cjs scripts/render-sdk-types.ts writes them)', async () => {
    await expect(promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'run-ts.cjs'), join(ROOT, 'scripts', 'render-sdk-types.ts'), '--check'], { cwd: ROOT })).resolves.toBeDefined();
  }, 60_000);
});
