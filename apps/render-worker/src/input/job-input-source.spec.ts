import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobInputV1, JobWorkRequestedV1 } from '@vj/contracts';
import { JobFailure } from '../errors/job-failure';
import { AllowList } from '@vj/egress';
import { JobInputSource } from './job-input-source';
import { TransloadError } from './transload-error';

// A file path no test creates: a refused input must never be written (and the cleanup removes nothing real).
const UNUSED_DEST = join(tmpdir(), `vj-unused-${randomUUID()}`, 'in');

const job = (input: JobInputV1): JobWorkRequestedV1 => ({
  version: 1,
  job_id: 'job-1',
  account_id: 'acct-1',
  job_type: 'clean-audio-video',
  input,
  options: { strength: 0.874, normalize_loudness: true, target_lufs: -19 },
  requested_at: '2025-01-01T00:00:00.000Z',
});
const limits = { maxBytes: 100, uploadMaxBytes: 5_000, timeoutMs: 1_000, allowHosts: AllowList.empty };
const signal = new AbortController().signal;

describe('JobInputSource', () => {
  it("reads an upload from its owner prefix in object storage, up to the uploads' own limit", async () => {
    const downloads: [string, number][] = [];
    const storage = {
      stat: async () => ({ size: 3, contentType: 'video/mp4', etag: 'd41d8cd98f00b204e9800998ecf8427e' }),
      downloadToFile: async (key: string, _dest: string, maxBytes: number) => (
        downloads.push([key, maxBytes]), { size: 0, md5: 'd41d8cd98f00b204e9800998ecf8427e', sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' }
      ),
    };
    const fetched = await new JobInputSource(storage, limits).fetch(job({ kind: 'upload', upload_id: 'up-1', object_key: 'uploads/acct-1/up-1' }), '/dev/null', signal);
    expect(downloads).toEqual([['uploads/acct-1/up-1', 5_000]]);
    expect(fetched.size).toBe(0);
  });

  it("refuses an upload key outside the account's prefix", async () => {
    const storage = { stat: jest.fn(), downloadToFile: jest.fn() };
    const fetching = new JobInputSource(storage, limits).fetch(job({ kind: 'upload', upload_id: 'up-1', object_key: 'uploads/other/up-1' }), UNUSED_DEST, signal);
    await expect(fetching).rejects.toEqual(expect.objectContaining({ code: 'input_validation' }));
    await expect(fetching).rejects.toBeInstanceOf(JobFailure);
    expect(storage.stat).not.toHaveBeenCalled();
  });

  it('transloads a URL input behind the SSRF guard', async () => {
    const storage = { stat: jest.fn(), downloadToFile: jest.fn() };
    const fetching = new JobInputSource(storage, limits).fetch(job({ kind: 'url', url: 'http://169.254.169.254/latest/' }), UNUSED_DEST, signal);
    await expect(fetching).rejects.toBeInstanceOf(TransloadError);
  });
});
