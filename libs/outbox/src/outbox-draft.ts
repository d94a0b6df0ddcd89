import { randomUUID } from 'node:crypto';
import { captureContext, type StoredContext } from '@vj/observability';
import type { EntityManager } from 'typeorm';

// A message to publish once the transaction that wrote it commits.
export interface OutboxDraft {
  subject: string;
  msgId: string;
  payload: unknown;
}

// An outbox row as written: its id, the draft, and the writer's request id and trace context, so the
// event carries them although a relay publishes it later.
export interface OutboxRow {
  id: string;
  subject: string;
  msg_id: string;
  payload: unknown;
  context: StoredContext;
  created_at: Date;
}

export function outboxRows(drafts: OutboxDraft[], createdAt: Date): OutboxRow[] {
  const context = captureContext();
  return drafts.map((draft) => ({ id: randomUUID(), subject: draft.subject, msg_id: draft.msgId, payload: draft.payload, context, created_at: createdAt }));
}

// Writes drafts into the schema's outbox in the caller's transaction. One insert per row keeps the
// identity `position` in the order the drafts were listed.
export async function insertOutbox(tx: EntityManager, schema: string, drafts: OutboxDraft[], createdAt: Date): Promise<void> {
  for (const row of outboxRows(drafts, createdAt)) {
    await tx.query(`INSERT INTO "${schema}"."outbox" ("id", "subject", "msg_id", "payload", "context", "created_at") VALUES ($1, $2, $3, $4, $5, $6)`, [
      row.id,
      row.subject,
      row.msg_id,
      JSON.stringify(row.payload),
      JSON.stringify(row.context),
      row.created_at,
    ]);
  }
}
