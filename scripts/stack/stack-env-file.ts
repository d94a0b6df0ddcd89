import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InfraEnv } from './local-infra';

// While `npm start` runs, the addresses of its local servers are kept in DATA_DIR/stack.env so the
// operator CLI (`npm run cli`) reaches the same database and NATS (billing, for credits) without the
// user copying URLs around. NATS_URL carries the operator user's password of this start: mode 600.
const FILE = 'stack.env';

export function writeStackEnv(dataDir: string, env: InfraEnv): void {
  const lines = Object.entries(env).map(([name, value]) => `${name}=${value}`);
  writeFileSync(join(dataDir, FILE), `${lines.join('\n')}\n`, { mode: 0o600 });
}

export function removeStackEnv(dataDir: string): void {
  rmSync(join(dataDir, FILE), { force: true });
}

// Fills in variables the environment does not set from a running stack's file, if there is one.
export function loadStackEnv(dataDir: string, target: NodeJS.ProcessEnv): void {
  const path = join(dataDir, FILE);
  if (!existsSync(path)) return;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const at = line.indexOf('=');
    if (at > 0 && !target[line.slice(0, at)]) target[line.slice(0, at)] = line.slice(at + 1);
  }
}
