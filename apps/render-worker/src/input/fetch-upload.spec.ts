import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchUpload } from './fetch-upload';

// A store whose ETags are not MD5s (server-side encryption with KMS): the ETag is compared before and
// after the download instead.
function kmsStore(etags: string[]) {
  let stats = 0;
  return {
    stat: async () => ({ size: 5, contentType: 'video/mp4', etag: etags[Math.min(stats++, etags.length - 1)] }),
    downloadToFile: async () => ({ size: 5, md5: 'd41d8cd98f00b204e9800998ecf8427e', sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' }),
  };
}

describe('fetchUpload against a store whose ETags are not MD5s', () => {
  const dest = () => join(tmpdir(), `vj-fetch-${randomUUID()}`);

  it('reads the upload when its ETag is the pinned one before and after the download', async () => {
    await expect(fetchUpload(kmsStore(['kms-etag-1']), { object_key: 'uploads/a/u', etag: 'kms-etag-1' }, '/dev/null', 100)).resolves.toMatchObject({ size: 5 });
  });

  it.each([
    ['before', ['kms-etag-2']],
    ['during', ['kms-etag-1', 'kms-etag-2']],
  ])('fails with input_validation when the upload was replaced %s the download', async (_when, etags) => {
    await expect(fetchUpload(kmsStore(etags), { object_key: 'uploads/a/u', etag: 'kms-etag-1' }, dest(), 100)).rejects.toMatchObject({
      code: 'input_validation',
      details: [expect.objectContaining({ type: 'upload_changed' })],
    });
  });
});
