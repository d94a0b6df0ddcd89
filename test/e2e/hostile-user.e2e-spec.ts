import autocannon from 'autocannon';
import { createHash } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { subjects, type CleanAudioVideoJob, type VideoBackgroundRemovalJob } from '@vj/contracts';
import type { SchemaId } from '@vj/http-contracts';
import { natsServerOptions } from '@vj/messaging';
import { connect } from 'nats';
import { makeFifo, makeTrap, watchFifo, type TrapKind } from '../../apps/render-worker/src/media/testing/fence-traps';
import { runOnce } from '../../scripts/stack/service-process';
import { ApiClient } from '../support/api-client';
import { useE2eStack } from '../support/e2e-stack';
import { waitForFinalJob, waitForSettledJob } from '../support/job-polling';
import { startLyingServer, startStallingServer } from '../support/lying-server';
import { generateVideo } from '../support/media-tools';

const CLI = join('apps', 'gateway', 'src', 'cli', 'main.ts');
type AnyJob = CleanAudioVideoJob | VideoBackgroundRemovalJob;
const TYPES = [
  { path: '/v1/clean-audio-video', schema: 'CleanAudioVideoJob' as SchemaId },
  { path: '/v1/video-background-removal', schema: 'VideoBackgroundRemovalJob' as SchemaId },
] as const;
const CLEAN = TYPES[0];

interface Account {
  account_id: string;
  api_key: string;
  api: ApiClient;
}

// Issue 9's hostile user against `npm start`'s services: every way to get work free, read what is not
// theirs or overload the platform is refused with the right code, and nothing is charged for it.
describe('a hostile user, against all four services', () => {
  const e2e = useE2eStack('e2e-hostile');
  let shortClip: string;
  let longClip: string;

  beforeAll(async () => {
    shortClip = join(e2e.dir, 'short.mp4');
    longClip = join(e2e.dir, 'long.mp4');
    await generateVideo(shortClip, { codec: 'h264', seconds: 2, audio: true, size: '160x120' });
    await generateVideo(longClip, { codec: 'h264', seconds: 60, audio: true, size: '160x120' });
  }, 120_000);

  const cli = async (...args: string[]) => JSON.parse(await runOnce(CLI, args, { ...process.env, ...e2e.stack.infra.env })) as Record<string, unknown>;
  const newAccount = async (credits: number): Promise<Account> => {
    const created = (await cli('account', 'create', '--name', 'mallory', ...(credits ? ['--credits', String(credits)] : []))) as { account_id: string; api_key: string };
    return { ...created, api: new ApiClient(e2e.stack.apiUrl, created.api_key) };
  };
  // Once billing has settled every job of the account (holds released or charged).
  const balance = async (account: Account) => {
    let settled = { balance: 0, held: -1 };
    for (let tries = 0; tries < 100 && settled.held !== 0; tries++) {
      if (tries) await sleep(100);
      settled = (await account.api.request<{ balance: number; held: number }>('GET', '/v1/billing/balance', 'Balance')).body;
    }
    return settled;
  };
  const declareUpload = async (account: Account, fileName: string, size: number, contentType = 'video/mp4') => {
    const created = await account.api.request<{ upload_url: string; video_url: string }>('POST', '/v1/uploads', 'Upload', { file_name: fileName, content_type: contentType, file_size: size });
    expect(created.status).toBe(201);
    return created.body;
  };
  const put = (url: string, body: Buffer, contentType = 'video/mp4') => fetch(url, { method: 'PUT', body, headers: { 'content-type': contentType } });
  const upload = async (account: Account, path: string, contentType = 'video/mp4') => {
    const declared = await declareUpload(account, basename(path), statSync(path).size, contentType);
    expect((await put(declared.upload_url, readFileSync(path), contentType)).status).toBe(200);
    return declared;
  };
  const create = async (account: Account, type: (typeof TYPES)[number], videoUrl: string) => {
    const created = await account.api.request<AnyJob>('POST', type.path, type.schema, { video_url: videoUrl });
    expect(created.status).toBe(202);
    return created.body.job_id;
  };
  const finalJob = (account: Account, type: (typeof TYPES)[number], jobId: string) => waitForFinalJob<AnyJob>(account.api, `${type.path}/${jobId}`, type.schema, 180_000);

  it.each(TYPES)('cannot read a file on a worker through an uploaded playlist or concat list ($path): invalid_file, the file never opened, nothing charged', async (type) => {
    // The probe refuses a playlist too, so the quote is the job type's maximum: enough credits for it.
    const account = await newAccount(10_000);
    const kinds: TrapKind[] = ['hls-path', 'hls-file-url', 'concat'];
    for (const kind of kinds) {
      const trap = await makeTrap(join(e2e.dir, `${type.path.slice(4)}-${kind}`), kind);
      // Concat names its file relative to the list; the worker keeps the upload in its own folder, so
      // the list names the FIFO by its absolute path as well.
      if (kind === 'concat') writeFileSync(trap.inputPath, `ffconcat version 1.0\nfile ${trap.targetPath}\n`);
      makeFifo(trap.targetPath);
      const watcher = watchFifo(trap.targetPath);
      const declared = await upload(account, trap.inputPath, kind === 'concat' ? 'application/octet-stream' : 'application/vnd.apple.mpegurl');
      const job = await finalJob(account, type, await create(account, type, declared.video_url));
      const seen = watcher.stop();
      expect(job.status).toBe('FAILED');
      expect(job.error?.code).toBe('invalid_file');
      expect(seen.openedByReader).toBe(0);
    }
    expect(await balance(account)).toMatchObject({ balance: 10_000, held: 0 });
  });

  it('gets no free work from a URL that answers its probe with 2 s and its transload with 60 s: insufficient_credits before processing, nothing charged', async () => {
    const liar = await startLyingServer(shortClip, longClip);
    try {
      const account = await newAccount(15);
      const jobs = await Promise.all([1, 2, 3].map(async () => {
        const created = await account.api.request<CleanAudioVideoJob>('POST', CLEAN.path, CLEAN.schema, { video_url: liar.url });
        expect(created.status).toBe(202);
        expect(created.body.credits_estimated).toBe(5);
        return created.body.job_id;
      }));
      for (const jobId of jobs) {
        const job = await finalJob(account, CLEAN, jobId);
        expect(job.status).toBe('FAILED');
        expect(job.error?.code).toBe('insufficient_credits');
        expect(job).not.toHaveProperty('credits_charged');
      }
      expect(liar.fullGets).toBeGreaterThanOrEqual(1);
      expect(await balance(account)).toMatchObject({ balance: 15, held: 0 });
    } finally {
      await liar.close();
    }
  });

  it('pays for the 60 s the lying URL really serves when it has the credits', async () => {
    const liar = await startLyingServer(shortClip, longClip);
    try {
      const account = await newAccount(500);
      const jobId = await create(account, CLEAN, liar.url);
      const job = await waitForSettledJob<CleanAudioVideoJob>(account.api, `${CLEAN.path}/${jobId}`, CLEAN.schema, 180_000);
      expect(job.status).toBe('COMPLETED');
      expect(job.credits_charged).toBe(60);
      expect(await balance(account)).toMatchObject({ balance: 440, held: 0 });
    } finally {
      await liar.close();
    }
  });

  it('cannot swap an upload after the create with its still-valid PUT URL: the job fails input_validation and nothing is charged', async () => {
    const account = await newAccount(1000);
    // The only worker is busy with a longer job, so the target job is fetched after the swap.
    const busy = await create(account, CLEAN, (await upload(account, longClip)).video_url);
    const declared = await upload(account, shortClip);
    const jobId = await create(account, CLEAN, declared.video_url);
    const swapped = Buffer.from(readFileSync(shortClip));
    swapped[swapped.length - 100] ^= 0xff;
    expect((await put(declared.upload_url, swapped)).status).toBe(200);
    const job = await finalJob(account, CLEAN, jobId);
    expect(job.status).toBe('FAILED');
    expect(job.error).toMatchObject({ code: 'input_validation', details: [expect.objectContaining({ type: 'upload_changed', field: 'video_url' })] });
    expect((await finalJob(account, CLEAN, busy)).status).toBe('COMPLETED');
    const ledger = await account.api.request<{ data: { kind: string; job_id: string | null }[] }>('GET', '/v1/billing/ledger?limit=100', 'LedgerPage');
    expect(ledger.body.data.filter((entry) => entry.kind === 'charge').map((entry) => entry.job_id)).toEqual([busy]);
  });

  it('cannot PUT more, fewer or other bytes than declared: S3 refuses them and a create on that upload is 422', async () => {
    const account = await newAccount(0);
    const declared = await declareUpload(account, 'small.mp4', 1000);
    expect((await put(declared.upload_url, Buffer.alloc(5 * 1024 * 1024, 1))).status).toBe(403);
    expect((await put(declared.upload_url, Buffer.alloc(999, 1))).status).toBe(403);
    expect((await put(declared.upload_url, Buffer.alloc(1000, 1), 'text/html')).status).toBe(403);
    const created = await account.api.request<{ error: { code: string; details: { field: string }[] } }>('POST', CLEAN.path, CLEAN.schema, { video_url: declared.video_url });
    expect(created.status).toBe(422);
    expect(created.body.error.details[0].field).toBe('video_url');
  });

  it('is rate limited per key: a burst of reads and of estimates gets 429 rate_limited with Retry-After, every answer carries RateLimit headers, and a retry after Retry-After passes', async () => {
    const account = await newAccount(1000);
    const declared = await upload(account, shortClip);
    const burst = (request: () => Promise<Response>) => Promise.all(Array.from({ length: 200 }, request));
    const headers = { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' };
    for (const answers of [
      await burst(() => fetch(`${e2e.stack.apiUrl}/v1/jobs`, { headers })),
      await burst(() => fetch(`${e2e.stack.apiUrl}/v1/estimates?type=clean-audio-video`, { method: 'POST', headers, body: JSON.stringify({ video_url: declared.video_url }) })),
    ]) {
      const statuses = answers.map((res) => res.status);
      expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
      const refused = answers.filter((res) => res.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
      for (const res of answers) {
        expect(res.headers.get('ratelimit-limit')).toMatch(/^\d+$/);
        expect(res.headers.get('ratelimit-remaining')).toMatch(/^\d+$/);
        expect(res.headers.get('ratelimit-reset')).toMatch(/^\d+$/);
      }
      const body = (await refused[0].json()) as { error: { code: string } };
      expect(body.error.code).toBe('rate_limited');
      const retryAfter = Math.max(...refused.map((res) => Number(res.headers.get('retry-after'))));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      await sleep(retryAfter * 1000);
    }
    expect((await fetch(`${e2e.stack.apiUrl}/v1/jobs`, { headers })).status).toBe(200);
  });

  it("cannot have more jobs PROCESSING than its account's cap: the create past it is 429 with Retry-After, not a failed job", async () => {
    const stall = await startStallingServer();
    try {
      const account = await newAccount(10_000);
      await cli('account', 'limits', '--account', account.account_id, '--max-processing-jobs', '2');
      const first = await create(account, CLEAN, stall.url);
      const second = await create(account, CLEAN, stall.url);
      const refused = await account.api.request<{ error: { code: string } }>('POST', CLEAN.path, CLEAN.schema, { video_url: stall.url });
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const listed = await account.api.request<{ data: unknown[] }>('GET', '/v1/jobs', 'JobList');
      expect(listed.body.data).toHaveLength(2);
      for (const jobId of [first, second]) expect((await account.api.request<AnyJob>('POST', `${CLEAN.path}/${jobId}/cancel`, CLEAN.schema)).status).toBe(200);
      const third = await create(account, CLEAN, stall.url);
      expect((await account.api.request<AnyJob>('POST', `${CLEAN.path}/${third}/cancel`, CLEAN.schema)).status).toBe(200);
      expect(await balance(account)).toMatchObject({ balance: 10_000 });
    } finally {
      await stall.close();
    }
  });

  it('loses access at once with a revoked key, and with every key once its account is suspended (its jobs cancelled, nothing charged)', async () => {
    const account = await newAccount(10_000);
    const extra = (await cli('account', 'keys', 'create', '--account', account.account_id, '--name', 'leaked')) as { key_id: string; api_key: string };
    const leaked = new ApiClient(e2e.stack.apiUrl, extra.api_key);
    expect((await leaked.request('GET', '/v1/jobs', 'JobList')).status).toBe(200);
    await cli('account', 'keys', 'revoke', '--key', extra.key_id);
    const revokedAt = Date.now();
    expect((await leaked.request('GET', '/v1/jobs', 'JobList')).status).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    expect((await account.api.request('GET', '/v1/jobs', 'JobList')).status).toBe(200);

    const stall = await startStallingServer();
    try {
      const jobId = await create(account, CLEAN, stall.url);
      const suspended = await cli('account', 'suspend', '--account', account.account_id);
      expect(suspended.jobs_cancelled).toBe(1);
      expect((await account.api.request('GET', '/v1/jobs', 'JobList')).status).toBe(401);
      await cli('account', 'reinstate', '--account', account.account_id);
      const job = await account.api.request<AnyJob>('GET', `${CLEAN.path}/${jobId}`, CLEAN.schema);
      expect(job.body.status).toBe('CANCELLED');
      expect(await balance(account)).toMatchObject({ balance: 10_000, held: 0 });
    } finally {
      await stall.close();
    }
  });

  it('loses no connection under creates at saturation, nor on a keep-alive connection left idle past Node\'s default timeout', async () => {
    const account = await newAccount(1_000_000);
    await cli('account', 'limits', '--account', account.account_id, '--writes-per-second', '100000', '--write-burst', '100000', '--max-processing-jobs', '100000');
    const { video_url } = await upload(account, shortClip);
    const headers = { authorization: `Bearer ${account.api_key}`, 'content-type': 'application/json' };
    const load = await autocannon({ url: `${e2e.stack.apiUrl}${CLEAN.path}`, method: 'POST', headers, body: JSON.stringify({ video_url }), connections: 30, amount: 300 });
    expect({ errors: load.errors, timeouts: load.timeouts, non2xx: load.non2xx, answered: load['2xx'] }).toEqual({ errors: 0, timeouts: 0, non2xx: 0, answered: 300 });
    // Suspending cancels them all, so the next tests do not queue behind 300 jobs.
    expect((await cli('account', 'suspend', '--account', account.account_id)).jobs_cancelled).toBeGreaterThan(250);
    await cli('account', 'reinstate', '--account', account.account_id);

    // Node closes an idle connection after 5 s unless told otherwise: a client (or a load balancer) that
    // sends its next request on it at that moment gets "other side closed".
    const socket = createConnection(Number(new URL(e2e.stack.apiUrl).port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const request = `GET /v1/jobs HTTP/1.1\r\nHost: api\r\nAuthorization: Bearer ${account.api_key}\r\n\r\n`;
    try {
      socket.write(request);
      await sleep(7_000);
      expect(socket.destroyed).toBe(false);
      socket.write(request);
      const statusLines = () => received.match(/HTTP\/1\.1 \d{3}/g) ?? [];
      for (let waited = 0; statusLines().length < 2 && waited < 10_000; waited += 100) await sleep(100);
      expect(statusLines()).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    } finally {
      socket.destroy();
    }
  }, 120_000);

  it("cannot use another account's upload, read its job, or fetch its objects from S3", async () => {
    const owner = await newAccount(1000);
    const intruder = await newAccount(1000);
    const declared = await upload(owner, shortClip);
    const jobId = await create(owner, CLEAN, declared.video_url);
    const job = (await finalJob(owner, CLEAN, jobId)) as CleanAudioVideoJob;
    expect(job.status).toBe('COMPLETED');

    const stolen = await intruder.api.request<{ error: { code: string } }>('POST', CLEAN.path, CLEAN.schema, { video_url: declared.video_url });
    expect(stolen.status).toBe(422);
    expect((await intruder.api.request('GET', `${CLEAN.path}/${jobId}`, CLEAN.schema)).status).toBe(404);
    expect((await fetch(`${e2e.stack.apiUrl}${CLEAN.path}/${jobId}`, { method: 'DELETE', headers: { authorization: `Bearer ${intruder.api_key}` } })).status).toBe(404);

    // A presigned URL opens its own object only: pointed at another key, the signature fails.
    const presigned = new URL(job.result!.video.url);
    const otherKey = new URL(presigned);
    otherKey.pathname = presigned.pathname.replace(/[^/]+$/, 'other.mp4');
    expect((await fetch(otherKey)).status).toBe(403);
    const uploadKey = new URL(presigned);
    uploadKey.pathname = presigned.pathname.replace(/results\/.*$/, `uploads/${owner.account_id}/x`);
    expect((await fetch(uploadKey)).status).toBe(403);
    expect(createHash('sha256').update(Buffer.from(await (await fetch(presigned)).arrayBuffer())).digest('hex')).toHaveLength(64);
  });

  it('cannot read the bucket anonymously: objects and listings need a signature', async () => {
    const { S3_ENDPOINT } = e2e.stack.infra.env;
    const account = await newAccount(0);
    const declared = await upload(account, shortClip);
    const key = `uploads/${account.account_id}/${declared.video_url.replace('upload://', '')}`;
    for (const path of [`/video-jobs/${key}`, '/video-jobs/', '/video-jobs?list-type=2', '/']) {
      const res = await fetch(`${S3_ENDPOINT}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }
  });

  it('cannot delete a job that is still PROCESSING; a deleted job and its files are gone', async () => {
    const account = await newAccount(1000);
    const jobId = await create(account, CLEAN, (await upload(account, shortClip)).video_url);
    const job = (await finalJob(account, CLEAN, jobId)) as CleanAudioVideoJob;
    expect(job.status).toBe('COMPLETED');
    const deleted = await fetch(`${e2e.stack.apiUrl}${CLEAN.path}/${jobId}`, { method: 'DELETE', headers: { authorization: `Bearer ${account.api_key}` } });
    expect(deleted.status).toBe(204);
    expect((await account.api.request('GET', `${CLEAN.path}/${jobId}`, CLEAN.schema)).status).toBe(404);
    expect((await fetch(job.result!.video.url)).status).toBe(404);
  });

  // Only against the stack's own nats-server: a NATS_URL in the environment replaces it.
  (process.env.NATS_URL ? it.skip : it)('cannot reach NATS without a user, nor publish outside its permissions as a service', async () => {
    const { host } = new URL(e2e.stack.infra.env.NATS_URL);
    await expect(connect({ servers: host, timeout: 2_000 })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    const gateway = await connect({ ...natsServerOptions(e2e.stack.infra.natsUrl('gateway')), timeout: 2_000 });
    try {
      // Work reaches the workers through the jobs service's outbox only; credits come from the operator only.
      await expect(gateway.jetstream().publish(subjects.work('clean-audio-video'), new TextEncoder().encode('{}'))).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
      await expect(gateway.request(subjects.billingRpc('grant'), new TextEncoder().encode('{}'), { timeout: 2_000 })).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
    } finally {
      await gateway.close();
    }
  });
});
