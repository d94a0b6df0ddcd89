import type { EnvDefinition, EnvVar } from '@vj/config';
import { billingEnv } from '../apps/billing/src/billing.env';
import { gatewayEnv } from '../apps/gateway/src/gateway.env';
import { jobsEnv } from '../apps/jobs/src/jobs.env';
import { renderWorkerEnv } from '../apps/render-worker/src/render-worker.env';
import { webhooksEnv } from '../apps/webhook-delivery/src/webhooks.env';

// Every service's environment declaration, keyed by its docker-compose service name.
export const SERVICE_ENVS: Record<string, EnvDefinition<Record<string, EnvVar<unknown>>>> = {
  gateway: gatewayEnv,
  jobs: jobsEnv,
  'render-worker': renderWorkerEnv,
  billing: billingEnv,
  'webhook-delivery': webhooksEnv,
};

// The README's table: one row per variable, with the services that read it.
export function environmentTable(): string {
  const rows = new Map<string, { spec: EnvVar<unknown>; services: string[] }>();
  for (const [service, definition] of Object.entries(SERVICE_ENVS)) {
    for (const [name, spec] of Object.entries(definition.variables)) {
      const row = rows.get(name) ?? { spec, services: [] };
      row.services.push(service);
      rows.set(name, row);
    }
  }
  const lines = ['| variable | services | default | what it is |', '|---|---|---|---|'];
  for (const [name, { spec, services }] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
    const fallback = spec.default !== undefined ? `\`${String(spec.default)}\`` : spec.optional ? '(unset)' : '**required**';
    lines.push(`| \`${name}\` | ${services.join(', ')} | ${fallback} | ${spec.doc} |`);
  }
  return lines.join('\n');
}
