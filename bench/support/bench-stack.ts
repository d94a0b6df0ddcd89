import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startStack, type RunningStack } from '../../scripts/stack/stack';

export interface BenchStack {
  stack: RunningStack;
  // Scratch folder for the benchmark's clips, removed with the stack.
  dir: string;
  // The development account's bearer header, for JSON requests.
  headers: Record<string, string>;
  // POST /v1/uploads and the PUT to its URL: the video_url of the uploaded file. The development
  // account's, or the account whose bearer header is given.
  upload(path: string, accountHeaders?: Record<string, string>): Promise<string>;
}

// The whole stack as `npm start` runs it, on a throwaway data folder with quiet logs, stopped and
// removed whatever the benchmark does.
export async function withBenchStack(env: NodeJS.ProcessEnv, work: (bench: BenchStack) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vj-bench-'));
  // PostgreSQL runs as the postgres user when we are root: it must be able to reach its data folder.
  chmodSync(dir, 0o755);
  let stack: RunningStack | undefined;
  try {
    stack = await startStack({
      dataDir: join(dir, 'data'),
      durable: false,
      renderWorkers: Number(env.RENDER_WORKERS ?? 1),
      natsNodes: Number(env.NATS_NODES ?? 1),
      env: { LOG_LEVEL: 'warn', ...env },
      log: () => undefined,
    });
    const headers = { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' };
    const apiUrl = stack.apiUrl;
    const upload = async (path: string, accountHeaders = headers): Promise<string> => {
      const body = JSON.stringify({ file_name: basename(path), content_type: 'video/mp4', file_size: statSync(path).size });
      const created = (await (await fetch(`${apiUrl}/v1/uploads`, { method: 'POST', headers: accountHeaders, body })).json()) as { upload_url: string; video_url: string };
      // The PUT is signed for the declared type and size.
      await fetch(created.upload_url, { method: 'PUT', body: readFileSync(path), headers: { 'content-type': 'video/mp4' } });
      return created.video_url;
    };
    await work({ stack, dir, headers, upload });
  } finally {
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// A benchmark's numeric option: `--name value`, or the fallback when it is not given.
export function numberArg(name: string, fallback: number): number {
  return Number(stringArg(name, String(fallback)));
}

// A benchmark's text option: `--name value`, or the fallback when it is not given.
export function stringArg(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at > 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

export function runBench(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
