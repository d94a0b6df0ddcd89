import type { ConnectionOptions } from 'nats';

// nats.js ignores a user and password written in the server URL; deployments give each service its
// own (deploy/nats/nats.conf) as nats://<user>:<password>@host:port, so they are taken out here.
export function natsServerOptions(url: string): Pick<ConnectionOptions, 'servers' | 'user' | 'pass'> {
  const parsed = new URL(url);
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  if (!user) return { servers: url };
  parsed.username = '';
  parsed.password = '';
  return { servers: parsed.toString(), user, pass };
}

// A URL fit for a log line or an error: the host, never the credentials.
export function natsHost(url: string): string {
  return URL.canParse(url) ? new URL(url).host : 'NATS_URL';
}
