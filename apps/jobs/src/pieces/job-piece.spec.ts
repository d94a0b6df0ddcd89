import type { JobPlannedReportV1, SegmentPlanV1 } from '@vj/contracts';
import { MAX_SEGMENTS, piecesOfPlan, planProblem } from './job-piece';
import { pieceMessage } from './piece-messages';

const segments: SegmentPlanV1[] = [
  { index: 0, cut_from: 0, matte_from: 0, from: 0, to: 300, times: null },
  { index: 1, cut_from: 150, matte_from: 180, from: 300, to: 600, times: null },
];

function report(overrides: Partial<JobPlannedReportV1> = {}): JobPlannedReportV1 {
  return {
    version: 1,
    job_id: '0b7e4c52-5a0f-4d3e-9c1e-2f6a8d9b1c34',
    account_id: '5d2c8a9e-1f3b-4c7d-8e6a-9b0c1d2e3f40',
    job_type: 'video-background-removal',
    attempt: 1,
    input_key: 'uploads/a/b',
    frames: 600,
    fps: 30,
    media_duration_seconds: 20,
    deadline_at: '2026-12-06T12:00:00.000Z',
    segments,
    ...overrides,
  };
}

describe('a long job plan', () => {
  it('is a pass, ready with the first segment, then every segment and the join', () => {
    const pieces = piecesOfPlan(report());
    expect(pieces.map(({ piece, index, ready }) => `${piece} ${index} ${ready ? 'ready' : 'waits'}`)).toEqual(['pass 0 ready', 'segment 0 ready', 'segment 1 waits', 'join 0 waits']);
    expect(pieces[2]!.work).toEqual({ piece: 'segment', segment: segments[1], input_key: 'uploads/a/b', frames: 600, fps: 30, media_duration_seconds: 20 });
  });

  it('has no pass when every segment is matted from the first frame on, and sends those at once', () => {
    const early = report({ segments: [segments[0]!, { ...segments[1]!, cut_from: 0, matte_from: 0 }] });
    expect(planProblem(early)).toBeNull();
    expect(piecesOfPlan(early).map(({ piece, index, ready }) => `${piece} ${index} ${ready ? 'ready' : 'waits'}`)).toEqual(['segment 0 ready', 'segment 1 ready', 'join 0 waits']);
  });

  it('has no pass for a plan of one segment', () => {
    const one = report({ frames: 300, segments: [segments[0]!] });
    expect(planProblem(one)).toBeNull();
    expect(piecesOfPlan(one).map((piece) => piece.piece)).toEqual(['segment', 'join']);
  });

  it.each<[string, Partial<JobPlannedReportV1>, string]>([
    ['a gap', { segments: [segments[0]!, { ...segments[1]!, from: 301 }] }, 'segment 1 does not follow on from frame 300'],
    ['an overlap', { segments: [segments[0]!, { ...segments[1]!, from: 299 }] }, 'segment 1 does not follow on from frame 300'],
    ['a warm-up after the start', { segments: [segments[0]!, { ...segments[1]!, matte_from: 301 }] }, 'segment 1 does not follow on from frame 300'],
    ['a cut after the warm-up', { segments: [segments[0]!, { ...segments[1]!, cut_from: 200 }] }, 'segment 1 does not follow on from frame 300'],
    ['an empty segment', { segments: [segments[0]!, { ...segments[1]!, to: 300 }] }, 'segment 1 does not follow on from frame 300'],
    ['indices out of order', { segments: [segments[1]!, segments[0]!] }, 'segment 0 says it is 1'],
    ['a fractional frame', { segments: [segments[0]!, { ...segments[1]!, to: 600.5 }] }, 'segment 1 has a frame that is not a whole number'],
    ['the end short of the video', { frames: 700 }, 'the segments end at frame 600, the video at 700'],
    ['no segments', { segments: [] }, `the plan has not 1 to ${MAX_SEGMENTS} segments`],
    ['too many segments', { segments: Array.from({ length: MAX_SEGMENTS + 1 }, () => segments[0]!) }, `the plan has not 1 to ${MAX_SEGMENTS} segments`],
    ['no input', { input_key: '' }, 'the plan names no input'],
    ['no rate', { fps: 0 }, 'the plan has no frame count or rate'],
    ['no duration', { media_duration_seconds: Number.NaN }, 'the plan has no duration'],
    ['no deadline', { deadline_at: 'soon' }, 'the plan has no deadline'],
  ])('is refused with %s', (_, overrides, problem) => {
    expect(planProblem(report(overrides))).toBe(problem);
  });

  it("makes each piece's message, deduplicated by job, piece, index and send", () => {
    const [, , second] = piecesOfPlan(report());
    const ready = { job_id: report().job_id, account_id: report().account_id, options: { output_codec: 'vp9' } as never, job_created_at: new Date('2026-12-06T10:00:00Z'), plate_key: 'plates/1', outputs: [] };
    const message = pieceMessage({ ...ready, index: 1, work: second!.work, send: 2 });
    expect(message).toEqual({
      subject: 'vj.work.v1.video-background-removal.segment',
      msgId: `${report().job_id}.segment.1.2`,
      payload: {
        version: 1,
        job_id: report().job_id,
        account_id: report().account_id,
        job_type: 'video-background-removal',
        options: { output_codec: 'vp9' },
        requested_at: '2026-12-06T10:00:00.000Z',
        input_key: 'uploads/a/b',
        frames: 600,
        fps: 30,
        media_duration_seconds: 20,
        segment: segments[1],
        plate_key: 'plates/1',
      },
    });
  });
});
