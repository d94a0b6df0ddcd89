import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { CleanAudioVideoJob, VideoBackgroundRemovalJob } from '@vj/contracts';
import type { SchemaId } from '@vj/http-contracts';
import { REPO_ROOT } from '../../scripts/stack/service-process';
import { startStack, type RunningStack } from '../../scripts/stack/stack';
import { ApiClient } from './api-client';
import { serveFolder } from './file-server';
import { waitForFinalJob } from './job-polling';

export interface E2eContext {
  dir: string;
  stack: RunningStack;
  api: ApiClient;
  files: { baseUrl: string; close(): Promise<void> };
  upload(path: string, contentType: string): Promise<string>;
  runCleanAudio(body: Record<string, unknown>): Promise<CleanAudioVideoJob>;
  runBackgroundRemoval(body: Record<string, unknown>): Promise<VideoBackgroundRemovalJob>;
  download(url: string, name: string): Promise<string>;
  // The JSON log lines the services have written so far, each with the service that wrote it.
  logLines(): ServiceLogLine[];
}

export interface ServiceLogLine {
  service: string;
  entry: Record<string, unknown>;
}

// Starts the whole stack once for a test file (beforeAll) and stops it after (afterAll). Service output
// goes to reports/<name>.log, which CI keeps, not to the test report.
export function useE2eStack(name: string, env: NodeJS.ProcessEnv = {}): E2eContext {
  const context = {} as E2eContext;
  const logFile = join(REPO_ROOT, 'reports', `${name}.log`);

  beforeAll(async () => {
    context.dir = mkdtempSync(join(tmpdir(), 'vj-e2e-'));
    // PostgreSQL runs as the postgres user when we are root: it must be able to reach its data folder.
    chmodSync(context.dir, 0o755);
    mkdirSync(join(REPO_ROOT, 'reports'), { recursive: true });
    writeFileSync(logFile, '');
    context.files = await serveFolder(context.dir);
    context.stack = await startStack({
      dataDir: join(context.dir, 'data'),
      durable: false,
      renderWorkers: Number(env.RENDER_WORKERS ?? 1),
      // JSON lines at `log`: each message a service handles is one line with its job_id (and request_id
      // where a request started it), so a failed test's jobs can be followed across the services.
      env: { TRANSLOAD_ALLOW_HOSTS: '127.0.0.1', LOG_LEVEL: 'log', LOG_FORMAT: 'json', ...env },
      log: (line) => appendFileSync(logFile, `${line}\n`),
    });
    context.api = new ApiClient(context.stack.apiUrl, context.stack.apiKey);
  }, 180_000);

  afterAll(async () => {
    await context.stack?.stop();
    await context.files?.close();
    if (context.dir) rmSync(context.dir, { recursive: true, force: true });
  });

  context.upload = async (path, contentType) => {
    const created = await context.api.request<{ upload_url: string; video_url: string }>('POST', '/v1/uploads', 'Upload', {
      file_name: basename(path),
      content_type: contentType,
      file_size: statSync(path).size,
    });
    expect(created.status).toBe(201);
    // The PUT is signed for the declared type and size.
    const put = await fetch(created.body.upload_url, { method: 'PUT', body: readFileSync(path), headers: { 'content-type': contentType } });
    expect(put.status).toBe(200);
    return created.body.video_url;
  };

  // Creates a job and polls it until it is final.
  const runJob = async <J extends { job_id: string; status: string }>(path: string, schema: SchemaId, body: Record<string, unknown>): Promise<J> => {
    const created = await context.api.request<J>('POST', path, schema, body);
    expect(created.status).toBe(202);
    expect(created.body.status).toBe('PROCESSING');
    return waitForFinalJob<J>(context.api, `${path}/${created.body.job_id}`, schema, 240_000);
  };
  context.runCleanAudio = (body) => runJob<CleanAudioVideoJob>('/v1/clean-audio-video', 'CleanAudioVideoJob', body);
  context.runBackgroundRemoval = (body) => runJob<VideoBackgroundRemovalJob>('/v1/video-background-removal', 'VideoBackgroundRemovalJob', body);

  context.download = async (url, fileName) => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const path = join(context.dir, fileName);
    await writeFile(path, Buffer.from(await response.arrayBuffer()));
    return path;
  };

  context.logLines = () =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .map((line) => /^\[([^\]]+)\] (\{.*\})$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map(([, service, json]) => ({ service: service!.replace(/-\d+$/, ''), entry: JSON.parse(json!) as Record<string, unknown> }));

  return context;
}
