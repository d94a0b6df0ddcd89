import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface CliConfig {
  apiKey: string;
  apiUrl: string;
}

export const DEFAULT_API_URL = 'http://localhost:3000';

export class ConfigError extends Error {}

// The key from VJ_API_KEY, else from the config file (VJ_CONFIG, or ~/.config/vj/config.json:
// { "api_key": "...", "api_url": "..." }); the URL from --api-url, VJ_API_URL, the file, or the default.
export function loadConfig(env: NodeJS.ProcessEnv, apiUrlFlag?: string): CliConfig {
  const file = configFile(env);
  let stored: { api_key?: string; api_url?: string } = {};
  try {
    stored = JSON.parse(readFileSync(file, 'utf8')) as typeof stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const apiKey = env.VJ_API_KEY ?? stored.api_key;
  if (!apiKey) throw new ConfigError(`no API key: set VJ_API_KEY, or put { "api_key": "..." } in ${file}`);
  return { apiKey, apiUrl: apiUrlFlag ?? env.VJ_API_URL ?? stored.api_url ?? DEFAULT_API_URL };
}

export function configFile(env: NodeJS.ProcessEnv): string {
  return env.VJ_CONFIG ?? join(homedir(), '.config', 'vj', 'config.json');
}

// Where the CLI keeps what it remembers besides the config (pending-uploads.ts).
export function configDir(env: NodeJS.ProcessEnv): string {
  return dirname(configFile(env));
}
