// Opaque keyset cursor for newest-first listing: the (created_at, job_id) of the last job on a page.
export interface ListPosition {
  createdAt: Date;
  jobId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor({ createdAt, jobId }: ListPosition): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), jobId])).toString('base64url');
}

// Null for anything this service did not hand out.
export function decodeCursor(cursor: string): ListPosition | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [iso, jobId] = value as unknown[];
    if (typeof iso !== 'string' || typeof jobId !== 'string' || !UUID.test(jobId)) return null;
    const createdAt = new Date(iso);
    return Number.isNaN(createdAt.getTime()) ? null : { createdAt, jobId };
  } catch {
    return null;
  }
}
