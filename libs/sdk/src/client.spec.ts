import { JobFailedError, VideoJobs, VideoJobsError } from './index';

const BASE = 'https://api.example.com';
const JOB_ID = '5f0c6f3e-8d1a-4c43-9e0e-2b7f3f1d6a10';

type Handler = (request: Request) => Response | Promise<Response>;

// A fetch that answers from a queue of handlers and records every request it saw.
function fakeFetch(...handlers: Handler[]) {
  const seen: Request[] = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    seen.push(request.clone());
    const handler = handlers.shift();
    if (!handler) throw new Error(`unexpected request ${request.method} ${request.url}`);
    return handler(request);
  }) as typeof fetch;
  return { fetchFn, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const client = (fetchFn: typeof fetch, sleeps: number[] = []) =>
  new VideoJobs({ apiKey: 'vj_test_key', baseUrl: BASE, fetch: fetchFn, retry: { sleep: async (ms) => void sleeps.push(ms) } });

describe('VideoJobs SDK', () => {
  it('creates a job with the API key and a fresh Idempotency-Key, kept when a 503 makes it send again after Retry-After', async () => {
    const sleeps: number[] = [];
    const { fetchFn, seen } = fakeFetch(
      () => json(503, { error: { code: 'unavailable', message: 'retry later', details: null } }, { 'retry-after': '2' }),
      () => json(202, { job_id: JOB_ID, status: 'PROCESSING', credits_estimated: 26 }),
    );
    const job = await client(fetchFn, sleeps).cleanAudioVideo.create({ video_url: 'upload://9b2e4c1d-7f3a-4e8b-a6d5-1c0f2e3d4b5a', strength: 0.5 });
    expect(job).toEqual({ job_id: JOB_ID, status: 'PROCESSING', credits_estimated: 26 });
    expect(sleeps).toEqual([2_000]);
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${BASE}/v1/clean-audio-video`, `POST ${BASE}/v1/clean-audio-video`]);
    const keys = seen.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer vj_test_key');
    expect(await seen[1]!.json()).toEqual({ video_url: 'upload://9b2e4c1d-7f3a-4e8b-a6d5-1c0f2e3d4b5a', strength: 0.5 });
  });

  it('uses the caller\'s Idempotency-Key, and gives up on 429 after its retries with a typed error', async () => {
    const limited = () => json(429, { error: { code: 'rate_limited', message: 'slow down', details: null } }, { 'retry-after': '1', 'x-request-id': 'req-9' });
    const { fetchFn, seen } = fakeFetch(limited, limited, limited, limited, limited);
    const error = await client(fetchFn).videoBackgroundRemoval.create({ video_url: 'https://media.example.com/a.mp4' }, { idempotencyKey: 'mine-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VideoJobsError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', requestId: 'req-9', message: 'slow down' });
    expect(seen).toHaveLength(5);
    expect(new Set(seen.map((r) => r.headers.get('idempotency-key')))).toEqual(new Set(['mine-1']));
  });

  it('turns a refusal into a VideoJobsError with the code, the details and the request id', async () => {
    const details = [{ type: 'invalid_value', field: 'strength', message: 'strength must not be greater than 1' }];
    const { fetchFn } = fakeFetch(() => json(422, { error: { code: 'invalid_request', message: 'the body is not valid', details } }, { 'x-request-id': 'req-1' }));
    await expect(client(fetchFn).cleanAudioVideo.create({ video_url: 'https://a.example/v.mp4', strength: 2 })).rejects.toMatchObject({
      name: 'VideoJobsError',
      status: 422,
      code: 'invalid_request',
      requestId: 'req-1',
      details,
    });
  });

  it('lists jobs page after page as one async iterator', async () => {
    const item = (id: string) => ({ type: 'clean-audio-video', created_at: '2026-11-24T00:00:00.000Z', job: { job_id: id, status: 'COMPLETED' } });
    const { fetchFn, seen } = fakeFetch(() => json(200, { data: [item('a'), item('b')], next_cursor: 'c2' }), () => json(200, { data: [item('c')], next_cursor: null }));
    const ids: string[] = [];
    for await (const job of client(fetchFn).cleanAudioVideo.list({ pageSize: 2 })) ids.push(job.job_id);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(new URL(seen[1]!.url).searchParams.get('cursor')).toBe('c2');
    expect(new URL(seen[0]!.url).searchParams.get('type')).toBe('clean-audio-video');
  });

  it('waits for a job through its event stream, reporting progress, and resolves with the final job', async () => {
    const final = { job_id: JOB_ID, status: 'COMPLETED', result: { video: { url: 'https://s/x', content_type: 'video/mp4', file_name: 'x.mp4', file_size: 3 } } };
    const stream = [
      'id: 1\nevent: job.started\ndata: {"job_id":"x","status":"PROCESSING"}\n\n',
      ': heartbeat\n\n',
      'id: 2\nevent: job.progress\ndata: {"job_id":"x","stage":"processing","progress":0.5}\n\n',
      `id: 3\nevent: job.completed\ndata: ${JSON.stringify(final)}\n\n`,
    ].join('');
    const { fetchFn, seen } = fakeFetch(() => new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
    const sdk = client(fetchFn);
    sdk.typeOf.set(JOB_ID, 'clean-audio-video');
    const progress: number[] = [];
    await expect(sdk.jobs.wait({ job_id: JOB_ID }, { onProgress: (p) => progress.push(p.progress) })).resolves.toEqual(final);
    expect(progress).toEqual([0.5]);
    expect(seen[0]!.url).toBe(`${BASE}/v1/clean-audio-video/${JOB_ID}/events`);
  });

  it('falls back to long polling with Prefer: wait when no event stream is offered, and rejects a failed job', async () => {
    const { fetchFn, seen } = fakeFetch(
      // Which type: tried in turn.
      () => json(404, { error: { code: 'not_found', message: 'job not found', details: null } }),
      () => json(200, { job_id: JOB_ID, status: 'PROCESSING' }),
      () => new Response('<html>no</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
      () => json(200, { job_id: JOB_ID, status: 'FAILED', error: { code: 'invalid_file', message: 'not a video' } }, { 'preference-applied': 'wait=25' }),
    );
    const error = await client(fetchFn).jobs.wait({ job_id: JOB_ID }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as JobFailedError).job.error?.code).toBe('invalid_file');
    expect(seen[3]!.headers.get('prefer')).toBe('wait=25');
    expect(seen[3]!.url).toBe(`${BASE}/v1/video-background-removal/${JOB_ID}`);
  });

  it('uploads bytes as a stream with the declared length and type, reporting progress to the end', async () => {
    const bytes = new Uint8Array(300_000).fill(7);
    const { fetchFn, seen } = fakeFetch(
      () => json(201, { upload_id: 'u1', upload_url: 'https://storage.example.com/put?sig=1', video_url: 'upload://u1', expires_at: '2026-11-24T10:00:00.000Z' }),
      async (request) => {
        expect(request.headers.get('content-length')).toBe('300000');
        expect((await request.arrayBuffer()).byteLength).toBe(300_000);
        return new Response(null, { status: 200 });
      },
    );
    const progress: number[] = [];
    const upload = await client(fetchFn).uploads.upload(bytes, { fileName: 'talk.mp4', onProgress: (sent) => progress.push(sent) });
    expect(upload.video_url).toBe('upload://u1');
    expect(await seen[0]!.json()).toEqual({ file_name: 'talk.mp4', content_type: 'video/mp4', file_size: 300_000, multipart: false });
    expect(seen[1]!.method).toBe('PUT');
    expect(seen[1]!.headers.get('content-type')).toBe('video/mp4');
    expect(progress.at(-1)).toBe(300_000);
  });

  it('in a browser, PUTs a File with XMLHttpRequest (fetch streams bodies only over HTTP/2), reporting its progress', async () => {
    const sent: { method: string; url: string; headers: Record<string, string>; body: Blob }[] = [];
    class FakeXhr {
      readonly upload: { onprogress: ((event: { loaded: number }) => void) | null } = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      status = 0;
      private request = { method: '', url: '', headers: {} as Record<string, string> };
      open(method: string, url: string) {
        this.request = { ...this.request, method, url };
      }
      setRequestHeader(name: string, value: string) {
        this.request.headers[name] = value;
      }
      send(body: Blob) {
        sent.push({ ...this.request, body });
        this.upload.onprogress?.({ loaded: 100 });
        this.status = 200;
        setTimeout(() => this.onload?.(), 0);
      }
    }
    const globals = globalThis as { XMLHttpRequest?: unknown };
    globals.XMLHttpRequest = FakeXhr;
    try {
      const { fetchFn, seen } = fakeFetch(() =>
        json(201, { upload_id: 'u2', upload_url: 'https://storage.example.com/put?sig=2', video_url: 'upload://u2', expires_at: '2026-11-24T10:00:00.000Z' }),
      );
      const file = new Blob([new Uint8Array(250).fill(1)], { type: 'video/webm' });
      const progress: number[] = [];
      const upload = await client(fetchFn).uploads.upload(file, { fileName: 'clip.webm', onProgress: (bytes) => progress.push(bytes) });
      expect(upload.video_url).toBe('upload://u2');
      expect(seen).toHaveLength(1);
      expect(sent).toEqual([{ method: 'PUT', url: 'https://storage.example.com/put?sig=2', headers: { 'content-type': 'video/webm' }, body: file }]);
      expect(progress).toEqual([100, 250]);
    } finally {
      delete globals.XMLHttpRequest;
    }
  });

  it('reports an unreachable API as a network error after its retries', async () => {
    const down = () => Promise.reject(new TypeError('fetch failed'));
    const { fetchFn } = fakeFetch(down, down, down, down, down);
    await expect(client(fetchFn).billing.balance()).rejects.toMatchObject({ code: 'network', status: null });
  });
});
