import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SDK_DIR = join(__dirname, '..', 'libs', 'sdk');
const TSC = join(__dirname, '..', 'node_modules', 'typescript', 'bin', 'tsc');

// Builds the publishable SDK into `outDir` (libs/sdk/dist by default): CommonJS and its types with tsc,
// and an ES module that re-exports the CommonJS build, so `import` and `require` get the same classes
// (an error thrown by one is instanceof in the other).
export async function buildSdk(outDir = join(SDK_DIR, 'dist')): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  execFileSync(process.execPath, [TSC, '-p', join(SDK_DIR, 'tsconfig.build.json'), '--outDir', join(outDir, 'cjs'), '--declarationDir', join(outDir, 'types')], { stdio: 'inherit' });
  // The value exports, read from the source (the build itself may sit where its dependencies do not).
  const names = Object.keys((await import(join(SDK_DIR, 'src', 'index.ts'))) as object).filter((name) => name !== '__esModule' && name !== 'default');
  mkdirSync(join(outDir, 'esm'), { recursive: true });
  const cjs = relative(join(outDir, 'esm'), join(outDir, 'cjs', 'index.js'));
  writeFileSync(join(outDir, 'esm', 'index.mjs'), `import sdk from '${cjs}';\n\nexport const { ${names.join(', ')} } = sdk;\n`);
}

if (process.argv[1]?.endsWith('build-sdk.ts')) {
  buildSdk(process.argv[2])
    .then(() => process.stdout.write(`built ${relative(process.cwd(), process.argv[2] ?? join(SDK_DIR, 'dist'))}\n`))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
