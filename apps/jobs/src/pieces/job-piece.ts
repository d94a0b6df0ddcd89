import type { JobPlannedReportV1, PieceInputV1, SegmentPlanV1, WorkPiece } from '@vj/contracts';

// A piece's part of its work message, as the plan gave it (decision 0101); the rest comes from the
// job (ids, options) and from what is learned later (a segment's plate, the segments' files).
export type PieceWork = PieceInputV1 & ({ piece: 'pass'; segments: SegmentPlanV1[] } | { piece: 'segment'; segment: SegmentPlanV1 } | { piece: 'join' });

export interface NewPiece {
  piece: WorkPiece;
  index: number;
  work: PieceWork;
  // Whether it may be sent at once.
  ready: boolean;
}

// A video of 10 minutes in segments of a few seconds stays far below this; a plan past it is a fault.
export const MAX_SEGMENTS = 1_000;

// The pieces of a plan: the pass (only where a segment starts from a plate), each segment, the join.
// A segment matted from the first frame on (the first, or one shorter than the warm-up after it)
// starts from nothing learned, as a whole run does: it is ready at once, and the pass stores it no plate.
export function piecesOfPlan(report: JobPlannedReportV1): NewPiece[] {
  const input: PieceInputV1 = { input_key: report.input_key, frames: report.frames, fps: report.fps, media_duration_seconds: report.media_duration_seconds };
  const segments = report.segments.map(
    (segment): NewPiece => ({ piece: 'segment', index: segment.index, work: { ...input, piece: 'segment', segment }, ready: segment.matte_from === 0 }),
  );
  const needsPlates = report.segments.some((segment) => segment.matte_from > 0);
  const pass: NewPiece[] = needsPlates ? [{ piece: 'pass', index: 0, work: { ...input, piece: 'pass', segments: report.segments }, ready: true }] : [];
  return [...pass, ...segments, { piece: 'join', index: 0, work: { ...input, piece: 'join' }, ready: false }];
}

// What is wrong with a worker's plan, or null: the segments must follow each other from frame 0 to the
// last frame, each matted from at or before its first frame. A plan the jobs service cannot run would
// otherwise wait for a piece that never comes.
export function planProblem(report: JobPlannedReportV1): string | null {
  const { segments, frames, fps, media_duration_seconds: duration } = report;
  if (typeof report.input_key !== 'string' || report.input_key.length === 0) return 'the plan names no input';
  if (!(Number.isSafeInteger(frames) && frames > 0) || !(Number.isFinite(fps) && fps > 0)) return 'the plan has no frame count or rate';
  if (!(Number.isFinite(duration) && duration > 0)) return 'the plan has no duration';
  if (Number.isNaN(Date.parse(report.deadline_at))) return 'the plan has no deadline';
  if (!Array.isArray(segments) || segments.length === 0 || segments.length > MAX_SEGMENTS) return `the plan has not 1 to ${MAX_SEGMENTS} segments`;
  let end = 0;
  for (const [position, segment] of segments.entries()) {
    const { index, cut_from: cutFrom, matte_from: matteFrom, from, to } = segment;
    if (index !== position) return `segment ${position} says it is ${String(index)}`;
    if (![cutFrom, matteFrom, from, to].every((frame) => Number.isSafeInteger(frame))) return `segment ${position} has a frame that is not a whole number`;
    if (from !== end || to <= from || !(cutFrom >= 0 && cutFrom <= matteFrom && matteFrom <= from)) return `segment ${position} does not follow on from frame ${end}`;
    end = to;
  }
  return end === frames ? null : `the segments end at frame ${end}, the video at ${frames}`;
}
