import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { CleanAudioVideoJob, SchemaId, VideoBackgroundRemovalJob } from '@vj/contracts';
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
      env: { TRANSLOAD_ALLOW_HOSTS: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
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
    const put = await fetch(created.body.upload_url, { method: 'PUT', body: readFileSync(path) });
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

  return context;
}
