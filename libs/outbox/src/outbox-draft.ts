import { randomUUID } from 'node:crypto';
import { captureContext } from '@vj/observability';
import type { EntityManager } from 'typeorm';

// A message to publish once the transaction that wrote it commits.
export interface OutboxDraft {
  subject: string;
  msgId: string;
  payload: unknown;
}

// Writes drafts into the schema's outbox in the caller's transaction. One insert per row keeps the
// identity `position` in the order the drafts were listed. Each row keeps the writer's request id and
// trace context, so the event carries them although a relay publishes it later.
export async function insertOutbox(tx: EntityManager, schema: string, drafts: OutboxDraft[], createdAt: Date): Promise<void> {
  const context = JSON.stringify(captureContext());
  for (const draft of drafts) {
    await tx.query(`INSERT INTO "${schema}"."outbox" ("id", "subject", "msg_id", "payload", "context", "created_at") VALUES ($1, $2, $3, $4, $5, $6)`, [
      randomUUID(),
      draft.subject,
      draft.msgId,
      JSON.stringify(draft.payload),
      context,
      createdAt,
    ]);
  }
}
