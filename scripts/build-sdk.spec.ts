import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildSdk } from './build-sdk';

// The publishable SDK (libs/sdk) as a user gets it: CommonJS and ES module entry points over one build, with types.
describe('the SDK build', () => {
  const outDir = join(__dirname, '..', '.data', 'sdk-build-test');

  beforeAll(() => buildSdk(outDir), 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('loads with require and with import, the same classes either way', () => {
    expect(existsSync(join(outDir, 'types', 'index.d.ts'))).toBe(true);
    const script = `
      const cjs = require(${JSON.stringify(join(outDir, 'cjs', 'index.js'))});
      import(${JSON.stringify(join(outDir, 'esm', 'index.mjs'))}).then((esm) => {
        const client = new esm.VideoJobs({ apiKey: 'k', baseUrl: 'http://localhost:3000' });
        console.log(JSON.stringify({ same: esm.VideoJobs === cjs.VideoJobs, resources: Object.keys(client).sort(), error: new esm.VideoJobsError('m', 400, 'c', null) instanceof cjs.VideoJobsError }));
      });`;
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { same: boolean; resources: string[]; error: boolean };
    expect(out.same).toBe(true);
    expect(out.error).toBe(true);
    expect(out.resources).toEqual(expect.arrayContaining(['billing', 'cleanAudioVideo', 'jobs', 'uploads', 'videoBackgroundRemoval']));
  });
});
