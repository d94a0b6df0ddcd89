import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './free-port';
import { waitFor } from './wait-for';

export interface LocalPostgres {
  // Superuser URL of the cluster's `postgres` database, over TCP as a remote server is reached.
  adminUrl: string;
  // The same through the cluster's Unix socket, for processes on this machine (the local stack): a
  // round trip costs both sides about a fifth less CPU than over loopback TCP here. The TCP URL where
  // the socket's path is too long for one (about 107 bytes).
  localUrl: string;
  // A restart in two halves, for outage tests: the server stops (its sessions ended), then starts again
  // on the same port and data.
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

// A Unix socket's path must fit sockaddr_un's sun_path (108 bytes on Linux, its last a NUL).
const SOCKET_PATH_MAX = 107;

// Debian installs server binaries outside PATH, one folder per major version.
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (!versions[0]) throw new Error('PostgreSQL server binaries not found: apt-get install postgresql');
  return join(root, versions[0], 'bin');
}

// initdb refuses to run as root, so a root caller runs the cluster as the `postgres` system user.
function runAsIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  return { uid, gid };
}

export interface StartPostgresOptions {
  dataDir?: string;
  port?: number;
  // Tests trade durability for speed.
  durable?: boolean;
}

// A private PostgreSQL cluster on a free port: initdb on first use of dataDir, then pg_ctl start.
export async function startPostgresCluster(options: StartPostgresOptions = {}): Promise<LocalPostgres> {
  const bin = postgresBinDir();
  const ids = runAsIds();
  const ownDir = !options.dataDir;
  const baseDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'vj-pg-'));
  const dataDir = join(baseDir, 'data');
  mkdirSync(baseDir, { recursive: true });
  if (ids) chownSync(baseDir, ids.uid, ids.gid);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    execFileSync(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale'], {
      stdio: 'pipe',
      ...ids,
    });
  }
  const port = options.port ?? (await freePort());
  const settings = ['-c', `port=${port}`, '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${baseDir}`];
  if (!options.durable) settings.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server = await launch(join(bin, 'postgres'), ['-D', dataDir, ...settings], adminUrl, ids);
  return {
    adminUrl,
    localUrl: socketUrl(baseDir, port) ?? adminUrl,
    pause: () => server.stop(),
    async resume() {
      server = await launch(join(bin, 'postgres'), ['-D', dataDir, ...settings], adminUrl, ids);
    },
    async stop() {
      await server.stop();
      if (ownDir) rmSync(baseDir, { recursive: true, force: true });
    },
  };
}

// One run of the server, ready once it takes a connection.
async function launch(postgres: string, args: string[], adminUrl: string, ids: { uid: number; gid: number } | undefined): Promise<{ stop(): Promise<void> }> {
  const child: ChildProcess = spawn(postgres, args, { stdio: ['ignore', 'ignore', 'pipe'], ...ids });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  child.once('error', () => undefined);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitFor(`PostgreSQL at ${adminUrl}`, async () => {
      if (child.exitCode !== null) throw new Error(`postgres exited: ${stderr}`);
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      await client.end();
      return true;
    });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    async stop() {
      if (child.exitCode === null) {
        // SIGINT is PostgreSQL's "fast shutdown": sessions are ended, as in a restart.
        child.kill('SIGINT');
        await exited;
      }
    },
  };
}

// The superuser URL through the socket PostgreSQL keeps in `socketDir` for `port`, or null when that
// socket's path is too long to connect to.
export function socketUrl(socketDir: string, port: number): string | null {
  if (Buffer.byteLength(join(socketDir, `.s.PGSQL.${port}`)) >= SOCKET_PATH_MAX) return null;
  return `postgres://postgres@localhost:${port}/postgres?host=${encodeURIComponent(socketDir)}`;
}

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

// Creates a database (optionally from a migrated template) and returns its URL.
export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  } finally {
    await client.end();
  }
  return databaseUrl(adminUrl, name);
}
