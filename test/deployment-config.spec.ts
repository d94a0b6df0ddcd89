import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { environmentTable, SERVICE_ENVS } from '../scripts/env-catalogue';

const root = join(__dirname, '..');

describe('deployment configuration', () => {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string> }>;
  };

  it.each(Object.keys(SERVICE_ENVS))('docker-compose sets every variable %s requires', (service) => {
    const environment = compose.services[service]?.environment ?? {};
    const missing = SERVICE_ENVS[service].required().filter((name) => !(name in environment));
    expect(missing).toEqual([]);
  });

  it('docker-compose lets render workers scale (no fixed name or published port)', () => {
    const worker = compose.services['render-worker'] as Record<string, unknown>;
    expect(worker.container_name).toBeUndefined();
    expect(worker.ports).toBeUndefined();
  });

  it('the README lists every environment variable, as scripts/env-catalogue.ts prints them', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(environmentTable());
  });
});
