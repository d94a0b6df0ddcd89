// A message to publish once the transaction that wrote it commits.
export interface OutboxDraft {
  subject: string;
  msgId: string;
  payload: unknown;
}
