import type { ObjectStorage } from '@vj/storage';
import { gatewayEnv } from '../gateway.env';
import { CreateUploadService } from './create-upload.service';
import type { UploadsRepository } from './uploads.repository';

const GIB = 1024 ** 3;

// The default limits, as a deployment that sets none gets them.
function service() {
  const config = gatewayEnv.parse({ NATS_URL: 'nats://nats:4222', DATABASE_URL: 'postgres://db/vj', S3_ENDPOINT: 'http://s3:9000', S3_ACCESS_KEY: 'key', S3_SECRET_KEY: 'secret' });
  const storage = { startMultipart: jest.fn().mockResolvedValue('multipart-1'), presignPut: jest.fn().mockResolvedValue('http://s3/put') };
  const uploads = { insert: jest.fn().mockResolvedValue(undefined) };
  return { storage, uploads, create: new CreateUploadService(storage as unknown as ObjectStorage, uploads as unknown as UploadsRepository, config) };
}

const declaration = (file_size: number, multipart?: boolean) => ({ file_name: 'camera.mov', content_type: 'video/quicktime', file_size, ...(multipart !== undefined && { multipart }) });

describe('CreateUploadService limits by default (decision 0099)', () => {
  it('answers one PUT up to 2 GiB and parts above it, up to 50 GiB', async () => {
    const { create, storage } = service();
    expect(await create.execute('acct', declaration(2 * GIB))).toMatchObject({ upload_url: 'http://s3/put' });
    expect(await create.execute('acct', declaration(10 * GIB))).toMatchObject({ parts: { part_size: 16 * 1024 ** 2, count: 640 } });
    expect(await create.execute('acct', declaration(50 * GIB))).toMatchObject({ parts: { part_size: 16 * 1024 ** 2, count: 3200 } });
    expect(storage.startMultipart).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['51 GiB', declaration(51 * GIB)],
    ['51 GiB asked multipart', declaration(51 * GIB, true)],
    ['3 GiB asked as one PUT', declaration(3 * GIB, false)],
  ])('refuses %s with 413 and stores nothing', async (_name, body) => {
    const { create, storage, uploads } = service();
    await expect(create.execute('acct', body)).rejects.toEqual(expect.objectContaining({ status: 413 }));
    expect(storage.startMultipart).not.toHaveBeenCalled();
    expect(uploads.insert).not.toHaveBeenCalled();
  });
});
