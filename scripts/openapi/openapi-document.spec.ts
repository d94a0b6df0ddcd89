import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OPENAPI_FILE, renderOpenApi } from './openapi-document';

const REDOCLY = join(__dirname, '..', '..', 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

type Operation = { operationId?: string; summary?: string; tags?: string[]; security?: unknown[]; responses: Record<string, unknown> };

describe('the OpenAPI document', () => {
  let rendered: string;
  let document: { paths: Record<string, Record<string, Operation>>; servers?: unknown[] };

  beforeAll(async () => {
    rendered = await renderOpenApi();
    document = JSON.parse(rendered) as typeof document;
  }, 60_000);

  it('is the committed file (node scripts/run-ts.cjs scripts/render-openapi.ts writes it)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(rendered);
  });

  it('passes redocly lint (recommended rules, redocly.yaml) with no errors', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', OPENAPI_FILE, '--format=json'], { cwd: join(__dirname, '..', '..'), maxBuffer: 16 * 1024 * 1024 });
    const report = JSON.parse(stdout) as { totals: { errors: number }; problems: { ruleId: string; message: string }[] };
    expect(report.problems.filter((p) => (p as { severity?: string }).severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('names every operation for code generators, with a summary, a tag, its security and a rate-limit answer under /v1', () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
    expect(operations.length).toBeGreaterThan(20);
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, op } of operations) {
      expect(op.operationId).toMatch(/^[a-z]+[A-Z][A-Za-z]+$/);
      expect(op.summary).toBeTruthy();
      expect(op.tags?.length).toBeGreaterThan(0);
      expect(Array.isArray(op.security)).toBe(true);
      if (path.startsWith('/v1/')) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '429']));
    }
    expect(ids).toEqual(expect.arrayContaining(['createCleanAudioVideoJob', 'getVideoBackgroundRemovalJob', 'listJobs', 'createUpload', 'createWebhookEndpoint']));
    expect(document.servers?.length).toBeGreaterThan(0);
  });
});
