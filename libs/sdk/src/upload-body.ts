// What can be uploaded: a path (Node), bytes, a Blob or File (browsers, Node), or a stream with its size.
export type UploadSource = string | Uint8Array | Blob | { stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>; size: number };

export interface UploadBody {
  size: number;
  fileName: string;
  contentType: string;
  stream(): ReadableStream<Uint8Array>;
  // The bytes as a Blob (a browser's File, or bytes given): a browser PUTs it whole, see putFromBrowser.
  blob?: Blob;
  // Bytes start..end-1 on their own, for a multipart upload's parts; absent for a stream, which can be
  // read only once, in order.
  slice?(start: number, end: number): { stream(): ReadableStream<Uint8Array>; blob?: Blob };
}

const CONTENT_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  ts: 'video/mp2t',
  mpg: 'video/mpeg',
  mpeg: 'video/mpeg',
  ogv: 'video/ogg',
  wmv: 'video/x-ms-wmv',
  flv: 'video/x-flv',
  // A background removal's background image (an upload:// image_url).
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

export function contentTypeOf(fileName: string): string {
  return CONTENT_TYPES[fileName.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

function fromIterable(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

function blobPart(blob: Blob, start: number, end: number): { stream(): ReadableStream<Uint8Array>; blob: Blob } {
  const part = blob.slice(start, end);
  return { stream: () => part.stream(), blob: part };
}

// Never reads the whole file into memory: a path is streamed from disk, a Blob from its own stream.
export async function uploadBody(source: UploadSource, options: { fileName?: string; contentType?: string }): Promise<UploadBody> {
  if (typeof source === 'string') {
    const [{ stat }, { createReadStream }, { basename }, { Readable }] = await Promise.all([
      import('node:fs/promises'),
      import('node:fs'),
      import('node:path'),
      import('node:stream'),
    ]);
    const { size } = await stat(source);
    const fileName = options.fileName ?? basename(source);
    const fromDisk = (range?: { start: number; end: number }) => Readable.toWeb(createReadStream(source, range)) as ReadableStream<Uint8Array>;
    return {
      size,
      fileName,
      contentType: options.contentType ?? contentTypeOf(fileName),
      stream: () => fromDisk(),
      // createReadStream's end is inclusive.
      slice: (start, end) => ({ stream: () => fromDisk({ start, end: end - 1 }) }),
    };
  }
  const named = (fallback: string) => options.fileName ?? fallback;
  if (source instanceof Uint8Array) {
    const fileName = named('video');
    // (A view on an ArrayBuffer, never a SharedArrayBuffer, as the DOM library's Blob wants it.)
    const blob = new Blob([source as Uint8Array<ArrayBuffer>]);
    return { size: source.byteLength, fileName, contentType: options.contentType ?? contentTypeOf(fileName), stream: () => blob.stream(), blob, slice: (start, end) => blobPart(blob, start, end) };
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    const fileName = named((source as Blob & { name?: string }).name || 'video');
    return { size: source.size, fileName, contentType: options.contentType ?? (source.type || contentTypeOf(fileName)), stream: () => source.stream(), blob: source, slice: (start, end) => blobPart(source, start, end) };
  }
  const { stream, size } = source as { stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>; size: number };
  const fileName = named('video');
  return {
    size,
    fileName,
    contentType: options.contentType ?? contentTypeOf(fileName),
    stream: () => (stream instanceof ReadableStream ? stream : fromIterable(stream)),
  };
}

// Counts the bytes as they leave, for a progress bar.
export function counted(stream: ReadableStream<Uint8Array>, onBytes: (sent: number) => void): ReadableStream<Uint8Array> {
  let sent = 0;
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        sent += chunk.byteLength;
        onBytes(sent);
        controller.enqueue(chunk);
      },
    }),
  );
}

// The few XMLHttpRequest members a browser upload uses (the SDK compiles without the DOM library).
interface BrowserXhr {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: Blob): void;
  readonly upload: { onprogress: ((event: { loaded: number }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  readonly status: number;
}

// In a browser, a Blob is PUT with XMLHttpRequest: fetch sends a stream body only over HTTP/2 (Chromium
// refuses it on an HTTP/1.1 storage endpoint), cannot set Content-Length (the URL is signed for it) and
// reports no upload progress. The browser reads the file from disk as it sends, with its length.
// Resolves with the HTTP status; null where there is no XMLHttpRequest (Node: the streamed fetch).
// A part (contentType null) is signed with no Content-Type: none is set.
export function putFromBrowser(url: string, blob: Blob, contentType: string | null, onBytes: (sent: number) => void): Promise<number> | null {
  const Xhr = (globalThis as { XMLHttpRequest?: new () => BrowserXhr }).XMLHttpRequest;
  if (!Xhr) return null;
  return new Promise((resolve, reject) => {
    const xhr = new Xhr();
    xhr.open('PUT', url);
    if (contentType !== null) xhr.setRequestHeader('content-type', contentType);
    xhr.upload.onprogress = (event) => onBytes(event.loaded);
    xhr.onload = () => {
      onBytes(blob.size);
      resolve(xhr.status);
    };
    xhr.onerror = () => reject(new Error('the storage endpoint could not be reached'));
    xhr.onabort = () => reject(new Error('the upload was aborted'));
    xhr.send(blob);
  });
}
