import { PIECED_JOB_TYPE, subjects, type JobOptionsByType, type PlatePassWorkV1, type SegmentOutputV1, type WorkPiece, type WorkPiecePayloads } from '@vj/contracts';
import type { OutboxDraft } from '@vj/outbox';
import type { PieceWork } from './job-piece';

// A piece ready to go, with what its message needs from its job and from the pieces before it.
export interface ReadyPiece {
  job_id: string;
  account_id: string;
  options: JobOptionsByType[typeof PIECED_JOB_TYPE];
  job_created_at: Date;
  index: number;
  work: PieceWork;
  plate_key: string | null;
  // This send's number, from 1: a piece sent again is a new message, not a duplicate the stream drops.
  send: number;
  // The segments' files, in order (the join only).
  outputs: SegmentOutputV1[];
}

// The piece's work message (decision 0101), deduplicated by job, piece, index and send.
export function pieceMessage(ready: ReadyPiece): OutboxDraft {
  const { work } = ready;
  const base: PieceWorkBase = {
    version: 1,
    job_id: ready.job_id,
    account_id: ready.account_id,
    job_type: PIECED_JOB_TYPE,
    options: ready.options,
    requested_at: ready.job_created_at.toISOString(),
    input_key: work.input_key,
    frames: work.frames,
    fps: work.fps,
    media_duration_seconds: work.media_duration_seconds,
  };
  return { subject: subjects.workPiece(work.piece), msgId: `${ready.job_id}.${work.piece}.${ready.index}.${ready.send}`, payload: payloadOf(ready, base) };
}

function payloadOf({ work, plate_key, outputs }: ReadyPiece, base: PieceWorkBase): WorkPiecePayloads[WorkPiece] {
  switch (work.piece) {
    case 'pass':
      return { ...base, segments: work.segments };
    case 'segment':
      return { ...base, segment: work.segment, plate_key };
    case 'join':
      return { ...base, segments: outputs };
  }
}

// What every piece's message carries.
type PieceWorkBase = Omit<PlatePassWorkV1, 'segments'>;
