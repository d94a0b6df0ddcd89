import { isUuid } from './is-uuid';

// Opaque keyset cursor for newest-first listing: the (created_at, id) of the last row on a page (jobs,
// webhook deliveries).
export interface ListPosition {
  createdAt: Date;
  id: string;
}

export function encodeCursor({ createdAt, id }: ListPosition): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');
}

// Null for anything this service did not hand out.
export function decodeCursor(cursor: string): ListPosition | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [iso, id] = value as unknown[];
    if (typeof iso !== 'string' || typeof id !== 'string' || !isUuid(id)) return null;
    const createdAt = new Date(iso);
    return Number.isNaN(createdAt.getTime()) ? null : { createdAt, id };
  } catch {
    return null;
  }
}
