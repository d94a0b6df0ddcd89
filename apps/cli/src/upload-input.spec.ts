import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VideoJobsError, type VideoJobs } from '@vj/sdk';
import { PendingUploads } from './pending-uploads';
import type { ProgressView } from './progress-view';
import { uploadInput } from './run-job';

const QUIET: ProgressView = { upload() {}, processing() {}, download() {}, line() {}, stop() {} };
const API = 'http://api.example.com';

describe('uploadInput (vj --resume)', () => {
  let dir: string;
  let input: string;
  let pending: PendingUploads;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vj-cli-'));
    input = join(dir, 'talk.mp4');
    writeFileSync(input, 'video bytes');
    pending = new PendingUploads(join(dir, 'config'));
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  // An SDK whose upload declares a multipart upload, then fails or completes; resume answers as told.
  function fakeSdk(outcome: { upload?: 'fail' | 'ok'; resume?: 'ok' | 404 }) {
    const calls: string[] = [];
    const uploads = {
      async upload(_source: string, options: { onStart?: (upload: { upload_id: string; video_url: string }) => void }) {
        calls.push('upload');
        options.onStart?.({ upload_id: 'u1', video_url: 'upload://u1' });
        if (outcome.upload === 'fail') throw new VideoJobsError('part 2 failed 5 times', null, 'upload_failed', null);
        return { upload_id: 'u1', video_url: 'upload://u1' };
      },
      async resume(uploadId: string) {
        calls.push(`resume ${uploadId}`);
        if (outcome.resume === 404) throw new VideoJobsError('upload not found', 404, 'not_found', null);
        return { status: 'complete' };
      },
    };
    return { client: { uploads } as unknown as VideoJobs, calls };
  }

  it('remembers a multipart upload that failed, resumes it with --resume, then forgets it', async () => {
    const failing = fakeSdk({ upload: 'fail' });
    await expect(uploadInput(failing.client, input, QUIET, { pending, apiUrl: API, resume: true })).rejects.toMatchObject({ code: 'upload_failed' });
    expect(pending.find(input, statSync(input), API)).toMatchObject({ upload_id: 'u1', video_url: 'upload://u1' });

    const resuming = fakeSdk({ resume: 'ok' });
    expect(await uploadInput(resuming.client, input, QUIET, { pending, apiUrl: API, resume: true })).toBe('upload://u1');
    expect(resuming.calls).toEqual(['resume u1']);
    expect(pending.find(input, statSync(input), API)).toBeNull();
  });

  it('starts again without --resume, for a file changed since, for another API, and when the upload expired', async () => {
    await uploadInput(fakeSdk({ upload: 'fail' }).client, input, QUIET, { pending, apiUrl: API, resume: false }).catch(() => undefined);
    const plain = fakeSdk({ upload: 'ok' });
    await uploadInput(plain.client, input, QUIET, { pending, apiUrl: API, resume: false });
    expect(plain.calls).toEqual(['upload']);

    await uploadInput(fakeSdk({ upload: 'fail' }).client, input, QUIET, { pending, apiUrl: API, resume: true }).catch(() => undefined);
    const elsewhere = fakeSdk({ upload: 'ok' });
    await uploadInput(elsewhere.client, input, QUIET, { pending, apiUrl: 'http://other.example.com', resume: true });
    expect(elsewhere.calls).toEqual(['upload']);

    await uploadInput(fakeSdk({ upload: 'fail' }).client, input, QUIET, { pending, apiUrl: API, resume: true }).catch(() => undefined);
    writeFileSync(input, 'other bytes, longer');
    const changed = fakeSdk({ upload: 'ok' });
    await uploadInput(changed.client, input, QUIET, { pending, apiUrl: API, resume: true });
    expect(changed.calls).toEqual(['upload']);

    await uploadInput(fakeSdk({ upload: 'fail' }).client, input, QUIET, { pending, apiUrl: API, resume: true }).catch(() => undefined);
    const expired = fakeSdk({ upload: 'ok', resume: 404 });
    expect(await uploadInput(expired.client, input, QUIET, { pending, apiUrl: API, resume: true })).toBe('upload://u1');
    expect(expired.calls).toEqual(['resume u1', 'upload']);
    expect(pending.find(input, statSync(input), API)).toBeNull();
  });

  it('reads a damaged uploads.json as empty', async () => {
    mkdirSync(join(dir, 'config'));
    writeFileSync(join(dir, 'config', 'uploads.json'), '{ not json');
    expect(pending.find(input, statSync(input), API)).toBeNull();
    await uploadInput(fakeSdk({ upload: 'fail' }).client, input, QUIET, { pending, apiUrl: API, resume: true }).catch(() => undefined);
    expect(pending.find(input, statSync(input), API)).toMatchObject({ upload_id: 'u1' });
  });
});
