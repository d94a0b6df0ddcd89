import {
  BACKGROUND_REMOVAL_DEFAULTS,
  STREAMS,
  subjects,
  type JobPlannedReportV1,
  type JobRecordV1,
  type PlateStoredReportV1,
  type SegmentDoneReportV1,
  type SegmentOutputV1,
  type SegmentPlanV1,
  type StoredResultV1,
} from '@vj/contracts';
import { waitFor } from '@vj/local-stack';
import { decodeJson, type JetStreamPublisher, type JobsRpcClient } from '@vj/messaging';
import { randomUUID } from 'node:crypto';
import type { JetStreamManager } from 'nats';
import type { Client } from 'pg';
import { startJobsApp, type JobsAppHarness } from '../testing/jobs-app-harness';

// Decision 0101, the jobs service's part: the pieces of a long background removal go out as the
// reports make them ready, each once, at most SEGMENTS_IN_FLIGHT_PER_ACCOUNT of an account at a time.
const IN_FLIGHT = 3;

function plan(segments: number, framesPer = 300): SegmentPlanV1[] {
  return Array.from({ length: segments }, (_, index) => ({
    index,
    cut_from: Math.max(0, index * framesPer - 150),
    matte_from: Math.max(0, index * framesPer - 120),
    from: index * framesPer,
    to: (index + 1) * framesPer,
    times: null,
  }));
}

function output(index: number): SegmentOutputV1 {
  return {
    files: [{ role: 'transparent', object_key: `segments/x/${index}/transparent.webm`, content_type: 'video/webm', file_extension: 'webm' }],
    duration_seconds: 10,
    frames: 300,
    frame_rate: '30/1',
    width: 1280,
    height: 720,
    quality: { frames: 300, frames_with_person: 290, flicker: 0.01, still_samples: 100 },
  };
}

interface Piece {
  subject: string;
  payload: Record<string, unknown>;
}

describe('a long background removal run as pieces (jobs service over NATS and PostgreSQL)', () => {
  let harness: JobsAppHarness;
  let jsm: JetStreamManager;
  let rpc: JobsRpcClient;
  let publisher: JetStreamPublisher;
  let db: Client;

  beforeAll(async () => {
    harness = await startJobsApp('jobs_pieces', { SEGMENTS_IN_FLIGHT_PER_ACCOUNT: String(IN_FLIGHT) });
    ({ jsm, rpc, publisher, db } = harness);
  });

  afterAll(() => harness?.stop());

  // A funded background removal whose whole-job work message went out.
  async function startedJob(account: string): Promise<JobRecordV1> {
    const { job } = await rpc.call('create', {
      version: 1,
      account_id: account,
      job_type: 'video-background-removal',
      input: { kind: 'url', url: 'https://example.com/talk.mp4' },
      options: BACKGROUND_REMOVAL_DEFAULTS,
    });
    const base = { version: 1, event_id: randomUUID(), occurred_at: new Date().toISOString(), job_id: job.job_id, account_id: account, job_type: job.job_type };
    await publisher.publish(subjects.billingEvent('hold_placed'), { ...base, credits_held: 12, price_version: 3 }, { msgId: `${job.job_id}.hold_placed` });
    await waitFor('work published', async () => (await workOf(job.job_id)).length === 1);
    return job;
  }

  const base = (job: JobRecordV1) => ({ version: 1 as const, job_id: job.job_id, account_id: job.account_id, job_type: job.job_type });
  let reports = 0;
  // Each report under its own msgId: a repeated report is the worker's, not the stream's duplicate.
  const report = (kind: 'started' | 'planned' | 'plate_stored' | 'segment_done' | 'succeeded', payload: object) => publisher.publish(subjects.report(kind), payload, { msgId: `report.${++reports}` });

  function planned(job: JobRecordV1, segments: number, deadline = new Date(Date.now() + 3_600_000)): JobPlannedReportV1 {
    return { ...base(job), attempt: 1, input_key: `inputs/${job.job_id}`, frames: segments * 300, fps: 30, media_duration_seconds: segments * 10, deadline_at: deadline.toISOString(), segments: plan(segments) };
  }
  const plateStored = (job: JobRecordV1, index: number): PlateStoredReportV1 => ({ ...base(job), index, plate_key: `segments/${job.job_id}/plate-${index}` });
  const segmentDone = (job: JobRecordV1, index: number): SegmentDoneReportV1 => ({ ...base(job), index, output: output(index) });

  async function messagesOn(stream: string, jobId: string): Promise<Piece[]> {
    const { state } = await jsm.streams.info(stream);
    const found: Piece[] = [];
    for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
      const stored = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      const payload = stored && decodeJson<Record<string, unknown>>(stored.data);
      if (stored && payload?.job_id === jobId) found.push({ subject: stored.subject, payload });
    }
    return found;
  }
  const workOf = (jobId: string) => messagesOn(STREAMS.work, jobId);
  // The job's pieces sent so far, as "<piece> <index>" in the order they went.
  async function piecesOf(jobId: string): Promise<string[]> {
    return (await workOf(jobId))
      .filter((message) => message.subject !== subjects.work('video-background-removal'))
      .map(({ subject, payload }) => {
        const piece = subject.slice(subject.lastIndexOf('.') + 1);
        const segment = payload.segment as SegmentPlanV1 | undefined;
        return `${piece} ${segment?.index ?? 0}`;
      });
  }
  async function deadlineOf(jobId: string): Promise<Date> {
    const { rows } = await db.query('SELECT deadline_at FROM jobs.job WHERE job_id = $1', [jobId]);
    return rows[0].deadline_at as Date;
  }
  const reportsSettled = async () => (await jsm.streams.info(STREAMS.reports)).state.messages === 0;
  const settle = async () => {
    await waitFor('reports consumed', reportsSettled);
    await new Promise((resolve) => setTimeout(resolve, 400));
  };
  async function expectPieces(jobId: string, expected: string[]): Promise<void> {
    await waitFor(`pieces ${expected.join(', ')}`, async () => (await piecesOf(jobId)).length >= expected.length);
    await settle();
    expect(await piecesOf(jobId)).toEqual(expected);
  }

  it('sends the pass and the first segment on planned, each segment once its plate is stored, the join once all are done: each once, however often a report comes', async () => {
    const account = randomUUID();
    const job = await startedJob(account);
    // The planning worker's own deadline, then the whole job's from its plan.
    const workerDeadline = new Date(Date.now() + 600_000);
    await report('started', { ...base(job), attempt: 1, worker_id: 'w1', deadline_at: workerDeadline.toISOString() });
    await waitFor('started', async () => (await deadlineOf(job.job_id)).getTime() === workerDeadline.getTime());
    const deadline = new Date(Date.now() + 7_200_000);
    await report('planned', planned(job, 3, deadline));
    await report('planned', planned(job, 3, deadline));
    await expectPieces(job.job_id, ['pass 0', 'segment 0']);
    const [pass, first] = await workOf(job.job_id).then((messages) => messages.slice(1));
    expect(pass!.payload).toEqual({ ...base(job), options: BACKGROUND_REMOVAL_DEFAULTS, requested_at: job.created_at, input_key: `inputs/${job.job_id}`, frames: 900, fps: 30, media_duration_seconds: 30, segments: plan(3) });
    expect(first!.payload).toMatchObject({ segment: plan(3)[0], plate_key: null });
    // The plan's own limits, to the second.
    expect(Math.abs((await deadlineOf(job.job_id)).getTime() - deadline.getTime())).toBeLessThan(2_000);

    await report('plate_stored', plateStored(job, 2));
    await report('plate_stored', plateStored(job, 2));
    await expectPieces(job.job_id, ['pass 0', 'segment 0', 'segment 2']);
    // The pass is in flight until its last plate is stored, which frees its place for segment 1.
    await report('plate_stored', plateStored(job, 1));
    await expectPieces(job.job_id, ['pass 0', 'segment 0', 'segment 2', 'segment 1']);
    expect((await workOf(job.job_id)).at(-1)!.payload).toMatchObject({ segment: plan(3)[1], plate_key: `segments/${job.job_id}/plate-1` });

    for (const index of [2, 0, 1, 0]) await report('segment_done', segmentDone(job, index));
    await expectPieces(job.job_id, ['pass 0', 'segment 0', 'segment 2', 'segment 1', 'join 0']);
    expect((await workOf(job.job_id)).at(-1)!.payload).toMatchObject({ segments: [output(0), output(1), output(2)], media_duration_seconds: 30 });

    const result: StoredResultV1 = { job_type: 'video-background-removal', files: [{ object_key: `results/${job.job_id}/out.webm`, content_type: 'video/webm', file_name: 'out.webm', file_size: 10 }] };
    await report('succeeded', { ...base(job), result, media_duration_seconds: 30 });
    await waitFor('completed', async () => (await rpc.call('get', { version: 1, account_id: account, job_id: job.job_id })).status === 'COMPLETED');
    // The job's end closes its pieces after its status changed, in a transaction of its own.
    const openPieces = async () => (await db.query('SELECT count(*)::int AS n FROM jobs.job_piece WHERE job_id = $1 AND done_at IS NULL', [job.job_id])).rows[0].n as number;
    await waitFor('pieces closed', async () => (await openPieces()) === 0);
    // Its progress, which no one worker knows, from the jobs service: up the processing span.
    const progress = (await messagesOn(STREAMS.jobUpdates, job.job_id)).map((message) => message.payload).filter((update) => update.kind === 'progress').map((update) => update.progress as number);
    expect(progress[0]).toBe(0.15);
    expect(progress.at(-1)).toBe(0.95);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it("keeps an account's pieces in flight to its cap, oldest job first, frees them when a job is cancelled, and never holds back another account's", async () => {
    const account = randomUUID();
    const older = await startedJob(account);
    const newer = await startedJob(account);
    await report('planned', planned(older, 4));
    await expectPieces(older.job_id, ['pass 0', 'segment 0']);
    await report('planned', planned(newer, 2));
    // One place left: the newer job's pass takes it, its first segment waits.
    await expectPieces(newer.job_id, ['pass 0']);

    for (const index of [1, 2, 3]) await report('plate_stored', plateStored(older, index));
    // The older job's pass is done: its place goes to the older job's next segment, not the newer's first.
    await expectPieces(older.job_id, ['pass 0', 'segment 0', 'segment 1']);
    expect(await piecesOf(newer.job_id)).toEqual(['pass 0']);

    const other = await startedJob(randomUUID());
    await report('planned', planned(other, 2));
    await expectPieces(other.job_id, ['pass 0', 'segment 0']);

    // The newer job waits behind the older one's pieces: while those move, it keeps its whole time.
    await db.query(`UPDATE jobs.job SET deadline_at = now() - interval '1 minute' WHERE job_id = $1`, [newer.job_id]);
    await report('segment_done', segmentDone(older, 0));
    await expectPieces(older.job_id, ['pass 0', 'segment 0', 'segment 1', 'segment 2']);
    expect((await deadlineOf(newer.job_id)).getTime()).toBeGreaterThan(Date.now() + 3_000_000);

    await rpc.call('cancel', { version: 1, account_id: account, job_id: older.job_id });
    await expectPieces(newer.job_id, ['pass 0', 'segment 0']);
    await report('plate_stored', plateStored(older, 3));
    await report('segment_done', segmentDone(older, 1));
    await settle();
    expect(await piecesOf(older.job_id)).toEqual(['pass 0', 'segment 0', 'segment 1', 'segment 2']);
  });

  it('fails the job with generation_failed on a plan whose segments do not follow on, and sends nothing', async () => {
    const account = randomUUID();
    const job = await startedJob(account);
    const broken = planned(job, 3);
    broken.segments[1] = { ...broken.segments[1]!, from: 310 };
    await report('planned', broken);
    await waitFor('failed', async () => (await rpc.call('get', { version: 1, account_id: account, job_id: job.job_id })).status === 'FAILED');
    expect((await rpc.call('get', { version: 1, account_id: account, job_id: job.job_id })).error).toEqual({
      code: 'generation_failed',
      message: 'the video could not be planned in segments: segment 1 does not follow on from frame 300',
    });
    await settle();
    expect(await piecesOf(job.job_id)).toEqual([]);
  });

  it('sends on the next sweep a ready piece whose send a failed change left undone', async () => {
    const account = randomUUID();
    const job = await startedJob(account);
    await report('planned', planned(job, 2));
    await expectPieces(job.job_id, ['pass 0', 'segment 0']);
    // As if the plate's report committed and the send that should have followed it never ran.
    await db.query(`UPDATE jobs.job_piece SET ready_at = now(), plate_key = 'segments/x/plate-1' WHERE job_id = $1 AND piece = 'segment' AND index = 1`, [job.job_id]);
    await expectPieces(job.job_id, ['pass 0', 'segment 0', 'segment 1']);
  });
});
