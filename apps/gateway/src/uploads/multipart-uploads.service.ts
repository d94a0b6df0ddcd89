import { Inject, Injectable } from '@nestjs/common';
import { uploadObjectKey, uploadVideoUrl } from '@vj/contracts';
import { MultipartUploadNotFoundError, ObjectStorage, type StoredPart } from '@vj/storage';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { ApiError } from '../http/api-error';
import type { UploadEntity } from '../identity';
import { layoutWith, partSize, type PartLayout } from './part-layout';
import { UploadsRepository } from './uploads.repository';

export interface UploadPartUrls {
  parts: { part_number: number; size: number; url: string }[];
  expires_at: string;
}

export interface UploadState {
  upload_id: string;
  video_url: string;
  file_name: string;
  content_type: string;
  file_size: number;
  status: 'pending' | 'complete';
  parts: PartLayout | null;
  parts_uploaded: { part_number: number; size: number; etag: string }[];
  created_at: string;
  expires_at: string;
}

// At most this many problems are named in one refusal of a complete.
const NAMED_PARTS = 10;

// A multipart upload after its start (decision 0099): the parts' URLs as the client asks for them, the
// parts S3 holds (what a client resumes from), the assembly, the abort. The parts go straight to S3;
// the gateway only signs and asks S3 what it holds. Another account's upload is not found.
@Injectable()
export class MultipartUploadsService {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly uploads: UploadsRepository,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async partUrls(accountId: string, uploadId: string, partNumbers: readonly number[]): Promise<UploadPartUrls> {
    const upload = await this.own(accountId, uploadId);
    const { layout, multipartId } = this.open(upload);
    const past = partNumbers.filter((partNumber) => partNumber > layout.count);
    if (past.length > 0) throw ApiError.invalidField('part_numbers', `the upload has ${layout.count} parts; there is no part ${past.slice(0, NAMED_PARTS).join(', ')}`);
    const ttl = this.config.UPLOAD_URL_TTL_SECONDS;
    const key = uploadObjectKey(accountId, uploadId);
    const parts = await Promise.all(
      partNumbers.map(async (partNumber) => {
        const size = partSize(layout, upload.file_size, partNumber);
        return { part_number: partNumber, size, url: await this.storage.presignPart(key, multipartId, partNumber, size, ttl) };
      }),
    );
    return { parts, expires_at: new Date(Date.now() + ttl * 1000).toISOString() };
  }

  async state(accountId: string, uploadId: string): Promise<UploadState> {
    return this.stateOf(await this.own(accountId, uploadId));
  }

  // Assembles the parts S3 holds, once every part is there at its exact size and none besides. A
  // complete of a completed upload answers its state again.
  async complete(accountId: string, uploadId: string): Promise<UploadState> {
    const upload = await this.own(accountId, uploadId);
    if (upload.part_size === null) throw ApiError.conflict('this upload is one PUT to upload_url: there is nothing to complete');
    if (upload.multipart_id === null) return this.stateOf(upload);
    const { layout, multipartId } = this.open(upload);
    const key = uploadObjectKey(accountId, uploadId);
    try {
      const stored = await this.storage.listParts(key, multipartId);
      this.checkWhole(stored, layout, upload.file_size);
      await this.storage.completeMultipart(key, multipartId, stored);
    } catch (error) {
      if (!(error instanceof MultipartUploadNotFoundError)) throw error;
      // A complete that ran at the same time assembled it first; else an abort freed it.
      if ((await this.storage.stat(key))?.size !== upload.file_size) throw ApiError.notFound('upload not found: it was aborted');
    }
    await this.uploads.markCompleted(uploadId);
    return this.stateOf({ ...upload, multipart_id: null });
  }

  // Aborts a multipart upload that is not complete: its parts are freed and its upload_id names nothing.
  async abort(accountId: string, uploadId: string): Promise<void> {
    const upload = await this.own(accountId, uploadId);
    if (upload.multipart_id === null) {
      throw ApiError.conflict(`only a multipart upload that is not complete can be aborted; a stored upload is deleted ${this.config.UPLOAD_RETENTION_HOURS} h after it was declared`);
    }
    await unlessGone(this.storage.abortMultipart(uploadObjectKey(accountId, uploadId), upload.multipart_id), undefined);
    await this.uploads.delete(uploadId);
  }

  // The retention sweep: multipart uploads declared before `before` and never completed are aborted,
  // so S3 frees their parts before the declarations go. Returns how many.
  async abortOpenCreatedBefore(before: Date): Promise<number> {
    const open = await this.uploads.openMultipartsCreatedBefore(before);
    for (const upload of open) {
      await unlessGone(this.storage.abortMultipart(uploadObjectKey(upload.account_id, upload.upload_id), upload.multipart_id as string), undefined);
    }
    return open.length;
  }

  private async own(accountId: string, uploadId: string): Promise<UploadEntity> {
    const upload = await this.uploads.findOwn(accountId, uploadId);
    if (!upload) throw ApiError.notFound('upload not found (uploads expire; see UPLOAD_RETENTION_HOURS)');
    return upload;
  }

  private open(upload: UploadEntity): { layout: PartLayout; multipartId: string } {
    if (upload.part_size === null) throw ApiError.conflict('this upload is one PUT to upload_url; it has no parts');
    if (upload.multipart_id === null) throw ApiError.conflict('this upload is complete; its parts can no longer change');
    return { layout: layoutWith(upload.file_size, upload.part_size), multipartId: upload.multipart_id };
  }

  // Every part 1..count at its exact size, and no other: else 422 naming the parts.
  private checkWhole(stored: readonly StoredPart[], layout: PartLayout, fileSize: number): void {
    const byNumber = new Map(stored.map((part) => [part.partNumber, part]));
    const problems: string[] = [];
    for (let partNumber = 1; partNumber <= layout.count && problems.length < NAMED_PARTS; partNumber++) {
      const part = byNumber.get(partNumber);
      const size = partSize(layout, fileSize, partNumber);
      if (!part) problems.push(`part ${partNumber} has not been uploaded`);
      else if (part.size !== size) problems.push(`part ${partNumber} is ${part.size} bytes, not ${size}`);
    }
    for (const part of stored) if (part.partNumber > layout.count && problems.length < NAMED_PARTS) problems.push(`part ${part.partNumber} is past the last part, ${layout.count}`);
    if (problems.length > 0) throw ApiError.invalidField('parts', `the upload is not whole: ${problems.join('; ')}`);
  }

  private async stateOf(upload: UploadEntity): Promise<UploadState> {
    const key = uploadObjectKey(upload.account_id, upload.upload_id);
    const layout = upload.part_size === null ? null : layoutWith(upload.file_size, upload.part_size);
    let uploaded: StoredPart[] = [];
    let complete = false;
    if (upload.multipart_id !== null) {
      uploaded = await unlessGone(this.storage.listParts(key, upload.multipart_id), []);
    } else {
      complete = (await this.storage.stat(key))?.size === upload.file_size;
    }
    return {
      upload_id: upload.upload_id,
      video_url: uploadVideoUrl(upload.upload_id),
      file_name: upload.file_name,
      content_type: upload.content_type,
      file_size: upload.file_size,
      status: complete ? 'complete' : 'pending',
      parts: layout,
      parts_uploaded: uploaded.map((part) => ({ part_number: part.partNumber, size: part.size, etag: part.etag })),
      created_at: upload.created_at.toISOString(),
      expires_at: new Date(upload.created_at.getTime() + this.config.UPLOAD_RETENTION_HOURS * 3_600_000).toISOString(),
    };
  }
}

// S3's answer, or `gone` where the multipart upload is no longer open (completed or aborted meanwhile).
async function unlessGone<T>(call: Promise<T>, gone: T): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof MultipartUploadNotFoundError) return gone;
    throw error;
  }
}
