import { createHash } from 'node:crypto';

// A UUID (version 5 layout) derived from the job and the event kind: a republished billing event keeps
// the event_id of the first publication, so consumers that dedupe on event_id see one event.
export function stableEventId(jobId: string, kind: string): string {
  const hash = createHash('sha1').update(`vj-billing:${jobId}:${kind}`).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
