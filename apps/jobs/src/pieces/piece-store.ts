import type { SegmentOutputV1 } from '@vj/contracts';
import type { NewPiece } from './job-piece';

// What a change did: whether it changed anything (a duplicate or late report does not), and how many
// work messages it wrote to the outbox.
export interface PieceChange {
  applied: boolean;
  sent: number;
}

// A long job's pieces behind one port (decision 0101). Every change is made under a lock of the job's
// account and followed, in the same transaction, by the sends it allows: the account's ready pieces,
// oldest job first, while fewer than its cap are in flight. A job no longer PROCESSING changes nothing
// and is sent nothing.
export interface PieceStore {
  // The plan's pieces, once per job; the job's deadline moves to the plan's, and on with each step of
  // its account's pieces while some of its own are open.
  plan(jobId: string, pieces: NewPiece[], deadlineAt: Date): Promise<PieceChange>;
  // A segment's plate: the segment becomes ready; with the last plate the pass is done.
  plateStored(jobId: string, index: number, plateKey: string): Promise<PieceChange>;
  // A segment's files: with the last segment the join becomes ready.
  segmentDone(jobId: string, index: number, output: SegmentOutputV1): Promise<PieceChange>;
  // The job ended: none of its pieces counts as in flight any more, and the account's next ones go.
  jobEnded(jobId: string): Promise<PieceChange>;
  // Sends what every account may have in flight: the backstop for a send a failed change left undone.
  sendWaiting(): Promise<number>;
}
