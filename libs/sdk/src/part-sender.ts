import { VideoJobsError } from './errors';
import type { UploadBody } from './upload-body';

export interface SignedPart {
  part_number: number;
  size: number;
  url: string;
}

export interface PartLayout {
  part_size: number;
  count: number;
}

// What sending parts needs from the client: URLs signed for parts, and a PUT of one part's bytes that
// resolves with the HTTP status (and rejects when the connection fails).
export interface PartTransport {
  sign(partNumbers: number[]): Promise<SignedPart[]>;
  put(part: SignedPart, bytes: { stream(): ReadableStream<Uint8Array>; blob?: Blob }): Promise<number>;
  sleep(ms: number): Promise<void>;
}

export interface SendOptions {
  // Parts in flight at once.
  concurrency: number;
  // Each part, once stored.
  onStored(part: SignedPart): void;
  // Tries per part before the upload gives up; the waits between them double from baseDelayMs, up to
  // maxDelayMs (the client's retry options).
  retry?: { attempts: number; baseDelayMs: number; maxDelayMs: number };
}

const DEFAULT_PART_RETRY = { attempts: 5, baseDelayMs: 500, maxDelayMs: 8_000 };
// URLs are signed a few batches ahead, not all at once: they expire (UPLOAD_URL_TTL_SECONDS).
const SIGN_AHEAD = 4;
const MAX_SIGNED_AT_ONCE = 1000;

export function partBytes(layout: PartLayout, fileSize: number, partNumber: number): number {
  return partNumber < layout.count ? layout.part_size : fileSize - (layout.count - 1) * layout.part_size;
}

// Sends `partNumbers` of `body`, `concurrency` at a time. A part whose PUT fails on the way (a dropped
// connection, a 5xx, 408 or 429) is sent again after a wait; one refused with 403 (its URL expired) is
// signed again first. Any other refusal, or a part that fails `retry.attempts` times, ends the upload
// with a VideoJobsError once the parts in flight have settled: what was stored stays, and `resume`
// sends the rest.
export async function sendParts(transport: PartTransport, body: UploadBody, layout: PartLayout, partNumbers: readonly number[], options: SendOptions): Promise<void> {
  const slice = body.slice;
  if (!slice) throw new VideoJobsError('a stream cannot be uploaded in parts: give a path, bytes or a Blob', null, 'upload_failed', null);
  const queue = [...partNumbers];
  const signed = new Map<number, SignedPart>();
  const batch = Math.min(MAX_SIGNED_AT_ONCE, Math.max(1, options.concurrency * SIGN_AHEAD));
  let signing: Promise<void> | null = null;
  const signFor = async (partNumber: number): Promise<SignedPart> => {
    while (!signed.has(partNumber)) {
      signing ??= transport
        .sign([partNumber, ...queue.filter((next) => !signed.has(next)).slice(0, batch - 1)])
        .then((parts) => parts.forEach((part) => signed.set(part.part_number, part)))
        .finally(() => (signing = null));
      await signing;
    }
    return signed.get(partNumber) as SignedPart;
  };
  const retry = options.retry ?? DEFAULT_PART_RETRY;
  const sendOne = async (partNumber: number): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      const part = await signFor(partNumber);
      const start = (partNumber - 1) * layout.part_size;
      const status = await transport.put(part, slice(start, start + part.size)).catch(() => null);
      if (status !== null && status >= 200 && status < 300) return options.onStored(part);
      if (status === 403) signed.delete(partNumber);
      else if (status !== null && status !== 408 && status !== 429 && status < 500) {
        throw new VideoJobsError(`part ${partNumber} was refused by storage (${status})`, status, 'upload_failed', null);
      }
      if (attempt >= retry.attempts) {
        throw new VideoJobsError(`part ${partNumber} failed ${attempt} times (${status ?? 'no connection'}); resume the upload to send the rest`, status, 'upload_failed', null);
      }
      await transport.sleep(Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1)));
    }
  };
  // After a part fails, no other starts, and the upload fails once the parts in flight have settled:
  // what storage holds then is all it will hold, so a resume never races this upload's own PUTs.
  let failure: { error: unknown } | null = null;
  const worker = async (): Promise<void> => {
    while (!failure) {
      const next = queue.shift();
      if (next === undefined) return;
      await sendOne(next).catch((error: unknown) => void (failure ??= { error }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, partNumbers.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}
