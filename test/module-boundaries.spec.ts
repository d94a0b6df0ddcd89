import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..');

// A probe file placed (virtually) at `from`.
interface Probe {
  from: string;
  source: string;
}

const importing = (name: string, from: string): string => `import { ${name} } from '${from}';\nexport const probe = ${name};\n`;

const PROBES = {
  appByPackage: { from: 'apps/jobs/src/boundary-probe.ts', source: importing('gatewayEnv', '@vj/gateway/src/gateway.env') },
  appByPath: { from: 'apps/jobs/src/boundary-probe.ts', source: importing('gatewayEnv', '../../gateway/src/gateway.env') },
  contractsOnStorage: { from: 'libs/contracts/src/boundary-probe.ts', source: importing('ObjectStorage', '@vj/storage') },
  contractsOnHttp: { from: 'libs/contracts/src/boundary-probe.ts', source: importing('schemaViolations', '@vj/http-contracts') },
  contractsOnNest: { from: 'libs/contracts/src/boundary-probe.ts', source: importing('ApiProperty', '@nestjs/swagger') },
  jobsOnHttp: { from: 'apps/jobs/src/boundary-probe.ts', source: importing('schemaViolations', '@vj/http-contracts') },
  billingOnHttp: { from: 'apps/billing/src/boundary-probe.ts', source: importing('schemaViolations', '@vj/http-contracts') },
  workerOnHttp: { from: 'apps/render-worker/src/boundary-probe.ts', source: importing('schemaViolations', '@vj/http-contracts') },
  jobsDomainOnHttp: { from: 'apps/jobs/src/domain/boundary-probe.ts', source: importing('schemaViolations', '@vj/http-contracts') },
  gatewayOnHttp: { from: 'apps/gateway/src/boundary-probe.ts', source: importing('schemaViolations', '@vj/http-contracts') },
  appOnLibrary: { from: 'apps/jobs/src/boundary-probe.ts', source: importing('subjects', '@vj/contracts') },
} satisfies Record<string, Probe>;

// The repository's ESLint config run on every probe in one process (the config and the Nx project
// graph load once, not once a probe): the rule ids each probe broke, by probe.
const LINT_PROBES = `
const { ESLint } = require('eslint');
const { join } = require('node:path');
(async () => {
  const probes = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
  const eslint = new ESLint({ cwd: process.cwd() });
  const rules = {};
  for (const [name, { from, source }] of Object.entries(probes)) {
    const [result] = await eslint.lintText(source, { filePath: join(process.cwd(), from) });
    rules[name] = result.messages.map((message) => message.ruleId ?? message.message);
  }
  process.stdout.write(JSON.stringify(rules));
})().catch((error) => { console.error(error); process.exit(1); });
`;

let broken: Record<keyof typeof PROBES, string[]>;

beforeAll(() => {
  const output = execFileSync(process.execPath, ['-e', LINT_PROBES], {
    cwd: root,
    input: JSON.stringify(PROBES),
    env: { ...process.env, NX_DAEMON: 'false' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  broken = JSON.parse(output.toString());
}, 120_000);

describe('Nx module boundaries', () => {
  it('refuse an app importing another app through its workspace package', () => {
    expect(broken.appByPackage).toContain('@nx/enforce-module-boundaries');
  });

  it('refuse an app reaching into another app by relative path', () => {
    expect(broken.appByPath).toContain('@nx/enforce-module-boundaries');
  });

  it('refuse the contracts library depending on another library', () => {
    expect(broken.contractsOnStorage).toContain('@nx/enforce-module-boundaries');
  });

  it('refuse the wire contracts depending on the HTTP layer or on a framework', () => {
    expect(broken.contractsOnHttp).toContain('@nx/enforce-module-boundaries');
    expect(broken.contractsOnNest).toContain('no-restricted-imports');
  });

  it('refuse a service that does not speak HTTP to users loading the HTTP layer', () => {
    for (const probe of [broken.jobsOnHttp, broken.billingOnHttp, broken.workerOnHttp, broken.jobsDomainOnHttp]) expect(probe).toContain('no-restricted-imports');
  });

  it('allow the gateway the HTTP layer', () => {
    expect(broken.gatewayOnHttp).toEqual([]);
  });

  it('allow an app to use a library', () => {
    expect(broken.appOnLibrary).toEqual([]);
  });
});
