import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startService } from '../../scripts/stack/service-process';
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
// removed whatever the benchmark does. BENCH_STACK_LOG=<file> keeps the services' output there (with
// LOG_LEVEL, to follow where a benchmark's time goes).
export async function withBenchStack(env: NodeJS.ProcessEnv, work: (bench: BenchStack) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vj-bench-'));
  // PostgreSQL runs as the postgres user when we are root: it must be able to reach its data folder.
  chmodSync(dir, 0o755);
  let stack: RunningStack | undefined;
  let s3: S3Process | undefined;
  try {
    s3 = await startS3Process(join(dir, 's3'));
    stack = await startStack({
      dataDir: join(dir, 'data'),
      durable: false,
      renderWorkers: Number(env.RENDER_WORKERS ?? 1),
      natsNodes: Number(env.NATS_NODES ?? 1),
      env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', ...s3.env, ...env },
      log: stackLog(process.env.BENCH_STACK_LOG),
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
    await s3?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function stackLog(path: string | undefined): (line: string) => void {
  if (!path) return () => undefined;
  writeFileSync(path, '');
  return (line) => appendFileSync(path, `${new Date().toISOString()} ${line}\n`);
}

interface S3Process {
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

// s3rver in a process of its own (s3-server-process.ts), so the load generator keeps this event loop
// to itself; the stack is given its endpoint as it would be given MinIO's.
async function startS3Process(directory: string): Promise<S3Process> {
  mkdirSync(directory, { recursive: true });
  let announce: (line: string) => void = () => undefined;
  const announced = new Promise<string>((resolve) => (announce = resolve));
  // Its first line is the JSON of its endpoint and keys, prefixed with its name by startService.
  const server = startService('s3-server', join('bench', 'support', 's3-server-process.ts'), process.env, (line) => announce(line.slice(line.indexOf(' ') + 1)));
  const exited = server.exited.then((code) => Promise.reject(new Error(`the benchmark's S3 server exited (${code}) before it listened`)));
  // Once it listens, its exit is stop()'s.
  exited.catch(() => undefined);
  const { endpoint, accessKey, secretKey } = JSON.parse(await Promise.race([announced, exited])) as { endpoint: string; accessKey: string; secretKey: string };
  return { env: { S3_ENDPOINT: endpoint, S3_ACCESS_KEY: accessKey, S3_SECRET_KEY: secretKey }, stop: () => server.stop() };
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
