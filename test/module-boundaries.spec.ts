import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..');

// Runs the repository's ESLint config on a probe file placed (virtually) in `from`.
function lintAs(from: string, source: string): string {
  try {
    execFileSync(join(root, 'node_modules', '.bin', 'eslint'), ['--stdin', '--stdin-filename', join(root, from)], {
      cwd: root,
      input: source,
      env: { ...process.env, NX_DAEMON: 'false' },
      stdio: 'pipe',
    });
    return '';
  } catch (error) {
    return String((error as { stdout?: Buffer }).stdout ?? error);
  }
}

describe('Nx module boundaries', () => {
  it('refuse an app importing another app through its workspace package', () => {
    const report = lintAs('apps/jobs/src/boundary-probe.ts', "import { gatewayEnv } from '@vj/gateway/src/gateway.env';\nexport const probe = gatewayEnv;\n");
    expect(report).toContain('@nx/enforce-module-boundaries');
  });

  it('refuse an app reaching into another app by relative path', () => {
    const report = lintAs('apps/jobs/src/boundary-probe.ts', "import { gatewayEnv } from '../../gateway/src/gateway.env';\nexport const probe = gatewayEnv;\n");
    expect(report).toContain('@nx/enforce-module-boundaries');
  });

  it('refuse the contracts library depending on another library', () => {
    const report = lintAs('libs/contracts/src/boundary-probe.ts', "import { ObjectStorage } from '@vj/storage';\nexport const probe = ObjectStorage;\n");
    expect(report).toContain('@nx/enforce-module-boundaries');
  });

  it('refuse the wire contracts depending on the HTTP layer or on a framework', () => {
    expect(lintAs('libs/contracts/src/boundary-probe.ts', "import { schemaViolations } from '@vj/http-contracts';\nexport const probe = schemaViolations;\n")).toContain('@nx/enforce-module-boundaries');
    expect(lintAs('libs/contracts/src/boundary-probe.ts', "import { ApiProperty } from '@nestjs/swagger';\nexport const probe = ApiProperty;\n")).toContain('no-restricted-imports');
  });

  it('refuse a service that does not speak HTTP to users loading the HTTP layer', () => {
    for (const app of ['jobs', 'billing', 'render-worker']) {
      expect(lintAs(`apps/${app}/src/boundary-probe.ts`, "import { schemaViolations } from '@vj/http-contracts';\nexport const probe = schemaViolations;\n")).toContain('no-restricted-imports');
    }
    expect(lintAs('apps/jobs/src/domain/boundary-probe.ts', "import { schemaViolations } from '@vj/http-contracts';\nexport const probe = schemaViolations;\n")).toContain('no-restricted-imports');
  });

  it('allow the gateway the HTTP layer', () => {
    expect(lintAs('apps/gateway/src/boundary-probe.ts', "import { schemaViolations } from '@vj/http-contracts';\nexport const probe = schemaViolations;\n")).toBe('');
  });

  it('allow an app to use a library', () => {
    expect(lintAs('apps/jobs/src/boundary-probe.ts', "import { subjects } from '@vj/contracts';\nexport const probe = subjects;\n")).toBe('');
  });
});
