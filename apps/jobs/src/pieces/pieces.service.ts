import type { JobPlannedReportV1, PlateStoredReportV1, SegmentDoneReportV1 } from '@vj/contracts';
import { piecesOfPlan } from './job-piece';
import type { PieceChange, PieceStore } from './piece-store';

const NOTHING: PieceChange = { applied: false, sent: 0 };

export interface PiecesServiceOptions {
  // Called after a change that wrote work messages (the relay publishes them without waiting for its poll).
  onOutboxWritten?: () => void;
}

// A long background removal's pieces (decision 0101): the reports that move them, and the end of a job,
// which lets its account's next pieces go.
export class PiecesService {
  constructor(
    private readonly store: PieceStore,
    private readonly options: PiecesServiceOptions,
  ) {}

  // A plan planProblem found nothing wrong with.
  async planned(report: JobPlannedReportV1): Promise<PieceChange> {
    return this.nudged(await this.store.plan(report.job_id, piecesOfPlan(report), new Date(report.deadline_at)));
  }

  async plateStored(report: PlateStoredReportV1): Promise<PieceChange> {
    // The first segment starts from nothing learned: no plate is ever stored for it.
    if (!(Number.isSafeInteger(report.index) && report.index >= 1) || typeof report.plate_key !== 'string' || !report.plate_key) return NOTHING;
    return this.nudged(await this.store.plateStored(report.job_id, report.index, report.plate_key));
  }

  async segmentDone(report: SegmentDoneReportV1): Promise<PieceChange> {
    if (!(Number.isSafeInteger(report.index) && report.index >= 0) || typeof report.output !== 'object' || report.output === null) return NOTHING;
    return this.nudged(await this.store.segmentDone(report.job_id, report.index, report.output));
  }

  async jobEnded(jobId: string): Promise<PieceChange> {
    return this.nudged(await this.store.jobEnded(jobId));
  }

  async sendWaiting(): Promise<number> {
    const sent = await this.store.sendWaiting();
    if (sent > 0) this.options.onOutboxWritten?.();
    return sent;
  }

  private nudged(change: PieceChange): PieceChange {
    if (change.sent > 0) this.options.onOutboxWritten?.();
    return change;
  }
}
