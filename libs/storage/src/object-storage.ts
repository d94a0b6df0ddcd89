import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { stat as statFile } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client } from 'minio';
import { presignPut, type PresignPutRequest } from './presign-put';

export interface ObjectStorageConfig {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
  // Host that clients outside the deployment use; presigned URLs are signed for it.
  publicEndpoint?: string;
}

// The S3 variables every service declares (libs/config s3Env), as parsed.
export interface S3Settings {
  S3_ENDPOINT: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
  S3_BUCKET: string;
  S3_REGION: string;
  S3_PUBLIC_ENDPOINT?: string;
}

export function storageConfig(settings: S3Settings): ObjectStorageConfig {
  return {
    endpoint: settings.S3_ENDPOINT,
    accessKey: settings.S3_ACCESS_KEY,
    secretKey: settings.S3_SECRET_KEY,
    bucket: settings.S3_BUCKET,
    region: settings.S3_REGION,
    publicEndpoint: settings.S3_PUBLIC_ENDPOINT,
  };
}

export interface ObjectInfo {
  size: number;
  contentType: string | undefined;
  // A single PUT's ETag is the MD5 of its bytes (S3, MinIO): what a job records to read the same bytes.
  etag: string;
}

// What a presigned PUT is signed for: S3 refuses any other size or Content-Type.
export interface PutDeclaration {
  contentLength: number;
  contentType: string;
}

// A part of a multipart upload as S3 holds it.
export interface StoredPart {
  partNumber: number;
  size: number;
  etag: string;
}

export class ObjectTooLargeError extends Error {}

// The multipart upload named is not (or no longer) open: completed, aborted, or never started.
export class MultipartUploadNotFoundError extends Error {}

// S3 refused to assemble the parts given: one is missing, its ETag differs, or one but the last is
// under S3's 5 MiB minimum. The message is S3's.
export class MultipartRefusedError extends Error {}

export class ObjectNotFoundError extends Error {}

function client(endpoint: string, config: ObjectStorageConfig): Client {
  const url = new URL(endpoint);
  return new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    useSSL: url.protocol === 'https:',
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    // A fixed region keeps presigning offline (no bucket-location lookup).
    region: config.region,
    pathStyle: true,
  });
}

// The one adapter over S3 (MinIO in production): uploads, results and presigned URLs.
export class ObjectStorage {
  private readonly internal: Client;
  private readonly presigner: Client;

  constructor(private readonly config: ObjectStorageConfig) {
    this.internal = client(config.endpoint, config);
    this.presigner = config.publicEndpoint ? client(config.publicEndpoint, config) : this.internal;
  }

  get bucket(): string {
    return this.config.bucket;
  }

  async ensureBucket(): Promise<void> {
    if (!(await this.internal.bucketExists(this.config.bucket))) {
      await this.internal.makeBucket(this.config.bucket, this.config.region).catch(async (error: unknown) => {
        // Another service may have created it between the check and the call.
        if (!(await this.internal.bucketExists(this.config.bucket))) throw error;
      });
    }
  }

  async ping(): Promise<boolean> {
    try {
      return await this.internal.bucketExists(this.config.bucket);
    } catch {
      return false;
    }
  }

  async stat(key: string): Promise<ObjectInfo | null> {
    try {
      const info = await this.internal.statObject(this.config.bucket, key);
      return { size: info.size, contentType: info.metaData?.['content-type'] as string | undefined, etag: info.etag };
    } catch (error) {
      if ((error as { code?: string }).code === 'NotFound' || (error as { code?: string }).code === 'NoSuchKey') return null;
      throw error;
    }
  }

  async putFile(key: string, path: string, contentType: string): Promise<{ size: number }> {
    const { size } = await statFile(path);
    await this.internal.fPutObject(this.config.bucket, key, path, { 'Content-Type': contentType });
    return { size };
  }

  // Streams an object to a local file, refusing objects larger than maxBytes. Both digests are of the
  // bytes written, taken as they arrive so the file is not read again: md5 (hex) to compare with an
  // ETag recorded earlier, sha256 (hex) for the worker's deny list.
  async downloadToFile(key: string, path: string, maxBytes: number, signal?: AbortSignal): Promise<{ size: number; md5: string; sha256: string }> {
    const info = await this.stat(key);
    if (!info) throw new ObjectNotFoundError(`object ${key} not found`);
    if (info.size > maxBytes) throw new ObjectTooLargeError(`object is ${info.size} bytes, more than the limit of ${maxBytes}`);
    const body = await this.internal.getObject(this.config.bucket, key);
    const md5 = createHash('md5');
    const sha256 = createHash('sha256');
    let size = 0;
    const digest = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        md5.update(chunk);
        sha256.update(chunk);
        size += chunk.length;
        // The object may have been replaced by a larger one since the stat.
        done(size > maxBytes ? new ObjectTooLargeError(`object is more than the limit of ${maxBytes} bytes`) : null, chunk);
      },
    });
    await pipeline(body, digest, createWriteStream(path), { signal });
    return { size, md5: md5.digest('hex'), sha256: sha256.digest('hex') };
  }

  async remove(key: string): Promise<void> {
    await this.internal.removeObject(this.config.bucket, key);
  }

  // Every object under the prefix, page after page, with when it was last written.
  async *list(prefix: string): AsyncIterable<{ key: string; lastModified: Date }> {
    for await (const item of this.internal.listObjectsV2(this.config.bucket, prefix, true) as AsyncIterable<{ name?: string; lastModified?: Date }>) {
      if (item.name && item.lastModified) yield { key: item.name, lastModified: item.lastModified };
    }
  }

  presignPut(key: string, ttlSeconds: number, declaration: PutDeclaration): Promise<string> {
    return this.signedPut(key, ttlSeconds, declaration);
  }

  // Multipart uploads (issue 41): the client PUTs each part to a URL signed for its number and exact
  // size; S3 holds the parts until they are assembled into the object, or aborted.
  async startMultipart(key: string, contentType: string): Promise<string> {
    return this.internal.initiateNewMultipartUpload(this.config.bucket, key, { 'Content-Type': contentType });
  }

  presignPart(key: string, uploadId: string, partNumber: number, size: number, ttlSeconds: number): Promise<string> {
    return this.signedPut(key, ttlSeconds, { contentLength: size, query: { partNumber: String(partNumber), uploadId } });
  }

  // The parts S3 holds for an open upload, by part number.
  async listParts(key: string, uploadId: string): Promise<StoredPart[]> {
    const internal = this.internal as unknown as { listParts(bucket: string, key: string, uploadId: string): Promise<{ part: number; size: number; etag: string }[]> };
    const parts = await internal.listParts(this.config.bucket, key, uploadId).catch(multipartError);
    return parts.map(({ part, size, etag }) => ({ partNumber: part, size, etag: etag.replace(/"/g, '') })).sort((a, b) => a.partNumber - b.partNumber);
  }

  // Assembles the parts, in part-number order, into the object; returns its ETag.
  async completeMultipart(key: string, uploadId: string, parts: readonly { partNumber: number; etag: string }[]): Promise<string> {
    const etags = [...parts].sort((a, b) => a.partNumber - b.partNumber).map(({ partNumber, etag }) => ({ part: partNumber, etag }));
    const { etag } = await this.internal.completeMultipartUpload(this.config.bucket, key, uploadId, etags).catch(multipartError);
    return etag.replace(/"/g, '');
  }

  async abortMultipart(key: string, uploadId: string): Promise<void> {
    await this.internal.abortMultipartUpload(this.config.bucket, key, uploadId).catch(multipartError);
  }

  // A PUT signed for the public endpoint, with what the body must be (and a part's query).
  private signedPut(key: string, ttlSeconds: number, signed: Pick<PresignPutRequest, 'contentLength' | 'contentType' | 'query'>): Promise<string> {
    const { publicEndpoint, endpoint, region, accessKey, secretKey, bucket } = this.config;
    return presignPut({ endpoint: publicEndpoint ?? endpoint, region, accessKey, secretKey, bucket, key, ttlSeconds, ...signed });
  }

  // The download keeps the file's name and type whatever the object key is.
  presignGet(key: string, ttlSeconds: number, fileName: string, contentType: string): Promise<string> {
    return this.presigner.presignedGetObject(this.config.bucket, key, ttlSeconds, {
      'response-content-disposition': `attachment; filename="${fileName.replace(/["\\]/g, '_')}"`,
      'response-content-type': contentType,
    });
  }
}

// S3's refusals of a multipart call as this adapter's errors; anything else (an outage) as it came.
function multipartError(error: unknown): never {
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'NoSuchUpload') throw new MultipartUploadNotFoundError(message ?? 'no such upload');
  if (code === 'InvalidPart' || code === 'InvalidPartOrder' || code === 'EntityTooSmall') throw new MultipartRefusedError(message ?? code);
  throw error;
}
