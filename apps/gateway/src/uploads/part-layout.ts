import { MAX_UPLOAD_PARTS } from '@vj/http-contracts';

// How a multipart upload is cut: parts of `part_size` bytes, the last holding the rest.
export interface PartLayout {
  part_size: number;
  count: number;
}

const MIB = 1024 ** 2;

// The configured part size, or the smallest whole MiB that keeps the file within S3's 10,000 parts.
export function partLayout(fileSize: number, partBytes: number): PartLayout {
  return layoutWith(fileSize, Math.max(partBytes, Math.ceil(fileSize / MAX_UPLOAD_PARTS / MIB) * MIB));
}

export function layoutWith(fileSize: number, partSize: number): PartLayout {
  return { part_size: partSize, count: Math.max(1, Math.ceil(fileSize / partSize)) };
}

// The exact size of part `partNumber` (1-based).
export function partSize(layout: PartLayout, fileSize: number, partNumber: number): number {
  return partNumber < layout.count ? layout.part_size : fileSize - (layout.count - 1) * layout.part_size;
}
