import { randomUUID } from 'node:crypto';
import { stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExportInputV1, StoredFileV1 } from '@vj/contracts';
import { ObjectNotFoundError } from '@vj/storage';
import { parseWorkPayload } from '../messaging/work-payload';
import { exportSourcePath, fetchExportSource } from './fetch-export-source';

const ACCOUNT = '5d2c8a9e-1f3b-4c7d-8e6a-9b0c1d2e3f40';
const SOURCE_JOB = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const file = (object_key: string): StoredFileV1 => ({ object_key, content_type: 'video/mp4', file_name: 'f', file_size: 5 });
const own = (name: string) => `results/${ACCOUNT}/${SOURCE_JOB}/1/${name}`;

function exportInput(pictureKey: string, stemsKey: string): ExportInputV1 {
  return {
    kind: 'export',
    source_job_id: SOURCE_JOB,
    picture: file(pictureKey),
    source: { kind: 'stems', file: file(stemsKey), low_band_energy: { input: 1, removed: 0.1 }, input_lufs: -20, duration_seconds: 3 },
  };
}

function store(present: (key: string) => boolean) {
  const downloaded: string[] = [];
  return {
    downloaded,
    downloadToFile: async (key: string) => {
      if (!present(key)) throw new ObjectNotFoundError(`object ${key} not found`);
      downloaded.push(key);
      return { size: 5, md5: 'm', sha256: 's' };
    },
  };
}

// An export's input (decision 0093): only its source job's own result objects, in its own account.
describe('fetchExportSource', () => {
  const dest = () => join(tmpdir(), `vj-export-${randomUUID()}`);

  it('downloads the picture to the destination and the kept stems beside it', async () => {
    const storage = store(() => true);
    const path = dest();
    await expect(fetchExportSource(storage, ACCOUNT, exportInput(own('a.mp4'), own('a-stems.flac')), path, 100)).resolves.toEqual({
      path,
      size: 5,
      sha256: 's',
      exportSourcePath: exportSourcePath(path),
    });
    expect(storage.downloaded).toEqual([own('a.mp4'), own('a-stems.flac')]);
  });

  it.each([
    ['another account', `results/0a2c8a9e-1f3b-4c7d-8e6a-9b0c1d2e3f40/${SOURCE_JOB}/1/a.mp4`],
    ['an upload', `uploads/${ACCOUNT}/${SOURCE_JOB}`],
    ['a climb out of the prefix', own('../../../other/1/a.mp4')],
  ])('refuses a message naming %s, reading nothing', async (_what, key) => {
    const storage = store(() => true);
    await expect(fetchExportSource(storage, ACCOUNT, exportInput(key, own('a-stems.flac')), dest(), 100)).rejects.toMatchObject({ code: 'input_validation' });
    expect(storage.downloaded).toEqual([]);
  });

  it('fails with input_validation, saying why, when the source job’s files are gone, and leaves no file behind', async () => {
    const storage = store((key) => !key.endsWith('.flac'));
    const path = dest();
    await writeFile(path, 'partial');
    await expect(fetchExportSource(storage, ACCOUNT, exportInput(own('a.mp4'), own('a-stems.flac')), path, 100)).rejects.toMatchObject({
      code: 'input_validation',
      details: [expect.objectContaining({ type: 'export_source_gone' })],
    });
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('passes on any other failure as it is', async () => {
    const storage = { downloadToFile: async () => Promise.reject(new Error('connection reset')) };
    await expect(fetchExportSource(storage, ACCOUNT, exportInput(own('a.mp4'), own('a-stems.flac')), dest(), 100)).rejects.toThrow('connection reset');
  });
});

describe('parseWorkPayload with an export input', () => {
  const work = (input: unknown) => ({ version: 1, job_type: 'clean-audio-video', job_id: 'j', account_id: ACCOUNT, input, options: {}, requested_at: 'now' });

  it('takes an export that names its source and both objects, and terms one that does not', () => {
    expect(parseWorkPayload('clean-audio-video', work(exportInput(own('a.mp4'), own('b.flac')))).input.kind).toBe('export');
    expect(() => parseWorkPayload('clean-audio-video', work({ kind: 'export', source_job_id: SOURCE_JOB }))).toThrow(/input is missing/);
  });
});
