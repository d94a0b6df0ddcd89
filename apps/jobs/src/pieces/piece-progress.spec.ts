import type { SegmentPlanV1 } from '@vj/contracts';
import type { PieceWork } from './job-piece';
import { pieceProgress, pieceProgressMessage, type PieceState } from './piece-progress';

const input = { input_key: 'k', frames: 900, fps: 30, media_duration_seconds: 30 };
const segments: SegmentPlanV1[] = [
  { index: 0, cut_from: 0, matte_from: 0, from: 0, to: 300, times: null },
  { index: 1, cut_from: 150, matte_from: 180, from: 300, to: 600, times: null },
  { index: 2, cut_from: 450, matte_from: 480, from: 600, to: 900, times: null },
];
const at = new Date('2026-12-06T10:00:00Z');

function pieces(done: { plates?: number[]; segments?: number[] }): PieceState[] {
  const state = (work: PieceWork, ready: boolean, finished: boolean): PieceState => ({ work, ready_at: ready ? at : null, done_at: finished ? at : null });
  return [
    state({ ...input, piece: 'pass', segments }, true, (done.plates ?? []).length === 2),
    ...segments.map((segment) => state({ ...input, piece: 'segment', segment }, segment.index === 0 || (done.plates ?? []).includes(segment.index), (done.segments ?? []).includes(segment.index))),
    state({ ...input, piece: 'join' }, false, false),
  ];
}

describe("a long job's progress", () => {
  it('runs over the processing span by the frames its pass and segments have done', () => {
    // Frames: the pass 180, the segments 300, 420 and 420.
    expect(pieceProgress(pieces({}))).toBe(0.15);
    expect(pieceProgress(pieces({ plates: [1] }))).toBeCloseTo(0.15 + (0.8 * 90) / 1320, 6);
    expect(pieceProgress(pieces({ plates: [1, 2], segments: [0] }))).toBeCloseTo(0.15 + (0.8 * 480) / 1320, 6);
    expect(pieceProgress(pieces({ plates: [1, 2], segments: [0, 1, 2] }))).toBeCloseTo(0.95, 6);
  });

  it("is published on the job's update subject as a worker's, deduplicated by its value", () => {
    expect(pieceProgressMessage({ job_id: 'j', account_id: 'a', attempts: 1 }, 0.4512345, at)).toEqual({
      subject: 'vj.updates.job.v1.j',
      msgId: 'j.1.processing.0.451',
      payload: { version: 1, job_id: 'j', account_id: 'a', job_type: 'video-background-removal', kind: 'progress', stage: 'processing', progress: 0.451, attempt: 1, occurred_at: '2026-12-06T10:00:00.000Z' },
    });
  });
});
