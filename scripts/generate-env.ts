import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fillEnvFile } from './deploy-env';

// Writes .env for docker-compose.yml from .env.example, with a fresh random value for every variable
// left empty there. It never overwrites an existing .env: rotating a secret is a deliberate act
// (decision 0020).
const root = join(__dirname, '..');
const target = join(root, '.env');
if (existsSync(target)) {
  process.stderr.write('.env exists already; nothing written (remove it first to generate new secrets)\n');
  process.exitCode = 1;
} else {
  writeFileSync(target, fillEnvFile(readFileSync(join(root, '.env.example'), 'utf8')), { mode: 0o600 });
  process.stdout.write('wrote .env with new random secrets (mode 600); keep it out of the repository\n');
}
