import { PIECED_JOB_TYPE, type SegmentOutputV1, type SegmentPlanV1, type WorkPiece, type WorkPiecePayloads } from '@vj/contracts';
import { PermanentMessageError } from '@vj/messaging';
import { pieceKeys } from './piece-files';

// A piece's work message this worker can run, or a PermanentMessageError: the job it names is failed
// and the message terminated. Every object it names must be one of its own job's pieces, so a faulty
// message never reads another job's files.
export function parsePieceWork<P extends WorkPiece>(piece: P, payload: unknown): WorkPiecePayloads[P] {
  const work = (payload ?? {}) as Partial<WorkPiecePayloads['segment'] & WorkPiecePayloads['join'] & WorkPiecePayloads['pass']> & { segments?: unknown; segment?: unknown };
  const problems: string[] = [];
  if (work.version !== 1) problems.push('version is not 1');
  if (work.job_type !== PIECED_JOB_TYPE) problems.push(`job_type is not ${PIECED_JOB_TYPE}`);
  if (typeof work.job_id !== 'string' || typeof work.account_id !== 'string') problems.push('job_id or account_id is missing');
  if (typeof work.options !== 'object' || work.options === null) problems.push('options are missing');
  if (!(Number.isSafeInteger(work.frames) && work.frames! > 0) || !(Number.isFinite(work.fps) && work.fps! > 0)) problems.push('frames or fps is missing');
  if (!(Number.isFinite(work.media_duration_seconds) && work.media_duration_seconds! > 0)) problems.push('media_duration_seconds is missing');
  if (problems.length === 0) {
    const own = pieceKeys({ account_id: work.account_id!, job_id: work.job_id! }).prefix;
    const mine = (key: unknown) => typeof key === 'string' && key.startsWith(own) && !key.includes('..');
    if (!mine(work.input_key)) problems.push('input_key is not one of the job\'s pieces');
    if (piece === 'pass' && !(Array.isArray(work.segments) && work.segments.length > 0 && work.segments.every(isSegmentPlan))) problems.push('segments are missing');
    if (piece === 'segment' && !(isSegmentPlan(work.segment) && (work.plate_key === null || mine(work.plate_key)))) problems.push('segment or plate_key is missing');
    if (piece === 'join' && !(Array.isArray(work.segments) && work.segments.length > 0 && work.segments.every((output) => isSegmentOutput(output, mine)))) problems.push('segments are missing');
  }
  if (problems.length) throw new PermanentMessageError(`unusable ${piece} message: ${problems.join(', ')}`);
  return work as WorkPiecePayloads[P];
}

function isSegmentPlan(value: unknown): value is SegmentPlanV1 {
  const segment = value as Partial<SegmentPlanV1> | null;
  return (
    typeof segment === 'object' &&
    segment !== null &&
    [segment.index, segment.cut_from, segment.matte_from, segment.from, segment.to].every((frame) => Number.isSafeInteger(frame) && frame! >= 0) &&
    segment.to! > segment.from! &&
    (segment.times === null || (typeof segment.times === 'object' && [segment.times?.start, segment.times?.delivered, segment.times?.end].every(Number.isFinite)))
  );
}

// Its kept matte too (decision 0106), where it names one: the join publishes it as the job's own.
function isSegmentOutput(value: unknown, mine: (key: unknown) => boolean): value is SegmentOutputV1 {
  const output = value as Partial<SegmentOutputV1> | null;
  if (typeof output !== 'object' || output === null) return false;
  const keptMatte = output.kept_matte_key;
  return Array.isArray(output.files) && output.files.length > 0 && output.files.every((file) => mine(file?.object_key)) && typeof output.frame_rate === 'string' && (keptMatte === undefined || keptMatte === null || mine(keptMatte));
}
