import { randomUUID } from 'node:crypto';
import { captureContext, type StoredContext } from '@vj/observability';

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

// An INSERT of outbox rows passed as one JSON parameter (`$param`, outboxRows' output), in their order
// (the identity `position` the relay publishes by), for the writer to fold into its own statement;
// only if `onlyIf` (an SQL condition of that statement, such as its update's having written) holds.
export function outboxInsertSql(schema: string, param: number, onlyIf?: string): string {
  return `INSERT INTO "${schema}"."outbox" ("id", "subject", "msg_id", "payload", "context", "created_at")
       SELECT "id", "subject", "msg_id", "payload", "context", "created_at"
         FROM jsonb_populate_recordset(NULL::"${schema}"."outbox", $${param}) WITH ORDINALITY${onlyIf ? ` WHERE ${onlyIf}` : ''} ORDER BY "ordinality"`;
}
