// What can be uploaded: a path (Node), bytes, a Blob or File (browsers, Node), or a stream with its size.
export type UploadSource = string | Uint8Array | Blob | { stream: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>; size: number };

export interface UploadBody {
  size: number;
  fileName: string;
  contentType: string;
  stream(): ReadableStream<Uint8Array>;
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
    return { size, fileName, contentType: options.contentType ?? contentTypeOf(fileName), stream: () => Readable.toWeb(createReadStream(source)) as ReadableStream<Uint8Array> };
  }
  const named = (fallback: string) => options.fileName ?? fallback;
  if (source instanceof Uint8Array) {
    const fileName = named('video');
    return { size: source.byteLength, fileName, contentType: options.contentType ?? contentTypeOf(fileName), stream: () => new Blob([source]).stream() };
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    const fileName = named((source as Blob & { name?: string }).name || 'video');
    return { size: source.size, fileName, contentType: options.contentType ?? (source.type || contentTypeOf(fileName)), stream: () => source.stream() };
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
