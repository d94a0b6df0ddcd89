import { PIECED_JOB_TYPE, PROGRESS_STAGE_SPANS, subjects, type JobProgressUpdateV1 } from '@vj/contracts';
import type { OutboxDraft } from '@vj/outbox';
import type { PieceWork } from './job-piece';

// A long job's progress, which no one worker knows (decision 0101): the share of its pieces' frames
// done, within the processing stage's span, as a whole run's worker reports it; the join is the upload's.
// The pass mattes one frame in five of the whole video (the render worker's PLATE_PASS).
const PASS_SHARE = 1 / 5;

export interface PieceState {
  work: PieceWork;
  ready_at: Date | null;
  done_at: Date | null;
}

export function pieceProgress(pieces: readonly PieceState[]): number {
  let total = 0;
  let done = 0;
  const segments = pieces.filter((piece) => piece.work.piece === 'segment');
  const plated = segments.filter((piece) => piece.work.piece === 'segment' && piece.work.segment.matte_from > 0);
  for (const piece of pieces) {
    const { work } = piece;
    if (work.piece === 'segment') {
      const frames = work.segment.to - work.segment.matte_from;
      total += frames;
      if (piece.done_at) done += frames;
    } else if (work.piece === 'pass') {
      const frames = work.frames * PASS_SHARE;
      total += frames;
      // Counted by the plates it stored, the last of which comes near its end.
      if (plated.length > 0) done += (frames * plated.filter((segment) => segment.ready_at).length) / plated.length;
    }
  }
  const [from, to] = PROGRESS_STAGE_SPANS.processing;
  return total > 0 ? from + ((to - from) * done) / total : from;
}

// The job's progress on its update subject, as a worker's would be, deduplicated by its value.
export function pieceProgressMessage(job: { job_id: string; account_id: string; attempts: number }, progress: number, at: Date): OutboxDraft {
  const rounded = Math.round(progress * 1000) / 1000;
  const payload: JobProgressUpdateV1 = {
    version: 1,
    job_id: job.job_id,
    account_id: job.account_id,
    job_type: PIECED_JOB_TYPE,
    kind: 'progress',
    stage: 'processing',
    progress: rounded,
    attempt: job.attempts,
    occurred_at: at.toISOString(),
  };
  return { subject: subjects.jobUpdate(job.job_id), msgId: `${job.job_id}.${job.attempts}.processing.${rounded}`, payload };
}
