import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';

type SourceData = string | ArrayBuffer | ArrayBufferView;

function bytes(data: SourceData): string | Uint8Array {
  if (typeof data === 'string') return data;
  return ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
}

// The Checksum interface the signer wants, on node:crypto.
class NodeSha256 {
  private readonly hash: Hash | Hmac;

  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }

  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }

  async digest(): Promise<Uint8Array> {
    return this.hash.digest();
  }
}

export interface PresignPutRequest {
  endpoint: string;
  region: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  key: string;
  ttlSeconds: number;
  // Signed: S3 refuses a PUT whose body is another size, or sent with another Content-Type (a part of
  // a multipart upload has none: the upload's type was given when it started).
  contentLength: number;
  contentType?: string;
  // Signed too: a part's uploadId and partNumber.
  query?: Record<string, string>;
}

// A presigned PUT (SigV4 in the query string, path-style) that signs Content-Length and Content-Type.
// The minio client leaves both out of presigned URLs on purpose, so an upload could be any size; here
// the declaration of POST /v1/uploads is the only body S3 accepts (decision 0021).
export async function presignPut(request: PresignPutRequest): Promise<string> {
  const endpoint = new URL(request.endpoint);
  const signer = new SignatureV4({
    credentials: { accessKeyId: request.accessKey, secretAccessKey: request.secretKey },
    region: request.region,
    service: 's3',
    sha256: NodeSha256,
    // S3 takes the path as sent: keys are escaped once, here.
    uriEscapePath: false,
  });
  const path = `/${request.bucket}/${request.key.split('/').map(encodeURIComponent).join('/')}`;
  const signed = await signer.presign(
    {
      method: 'PUT',
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      port: endpoint.port ? Number(endpoint.port) : undefined,
      path,
      query: { ...request.query },
      headers: {
        host: endpoint.host,
        'content-length': String(request.contentLength),
        ...(request.contentType !== undefined && { 'content-type': request.contentType }),
        // S3 never hashes the body of a query-signed request.
        'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
      },
    },
    // The payload hash is read from this header; it is neither signed nor sent (the client never sends it).
    { expiresIn: request.ttlSeconds, unhoistableHeaders: new Set(['x-amz-content-sha256']), unsignableHeaders: new Set(['x-amz-content-sha256']) },
  );
  const url = new URL(`${endpoint.protocol}//${endpoint.host}${path}`);
  for (const [name, value] of Object.entries(signed.query ?? {})) if (typeof value === 'string') url.searchParams.set(name, value);
  return url.toString();
}
