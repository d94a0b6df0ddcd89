import { Logger } from '@nestjs/common';
import {
  CONSUMERS,
  subjects,
  type JobFailedReportV1,
  type JobPlannedReportV1,
  type JobRetryingReportV1,
  type JobStartedReportV1,
  type JobSucceededReportV1,
  type JobWorkRequestedV1,
  type PlateStoredReportV1,
  type SegmentDoneReportV1,
} from '@vj/contracts';
import type { DeadLetter, DeadLetterHandlers, HandlerTable } from '@vj/messaging';
import { workerDeadline } from '../domain/job-deadline';
import type { JobsService } from '../jobs/jobs.service';
import { planProblem } from '../pieces/job-piece';
import type { PiecesService } from '../pieces/pieces.service';

const logger = new Logger('Reports');

// Worker reports move the job; duplicates and late reports for final jobs are acked and ignored.
export function reportHandlers(jobs: JobsService, pieces: PiecesService): HandlerTable {
  return {
    [subjects.report('started')]: async (payload) => {
      const report = payload as JobStartedReportV1;
      // The worker's deadline replaces the one from create: its limits count from when it started.
      await jobs.applyCommand(report.job_id, { kind: 'start', attempt: report.attempt, deadlineAt: workerDeadline(report) });
    },
    [subjects.report('retrying')]: async (payload) => {
      const report = payload as JobRetryingReportV1;
      await jobs.applyCommand(report.job_id, { kind: 'record_failure', failedAttempts: report.failed_attempts });
    },
    [subjects.report('succeeded')]: async (payload, ctx) => {
      const report = payload as JobSucceededReportV1;
      const outcome = await jobs.applyCommand(report.job_id, { kind: 'succeed', result: report.result, mediaDurationSeconds: report.media_duration_seconds });
      if (outcome === 'ignored') logger.log(`ignored succeeded report for job ${report.job_id} (attempt ${ctx.attempt})`);
    },
    [subjects.report('failed')]: async (payload) => {
      const report = payload as JobFailedReportV1;
      await jobs.applyCommand(report.job_id, { kind: 'fail', error: report.error });
    },
    // A long background removal's pieces (decision 0101).
    [subjects.report('planned')]: async (payload) => {
      const report = payload as JobPlannedReportV1;
      const problem = planProblem(report);
      // A plan that cannot run is a fault of ours no retry mends: the job fails rather than wait for
      // a piece that never comes.
      if (problem) await jobs.failJob(report.job_id, { code: 'generation_failed', message: `the video could not be planned in segments: ${problem}` });
      else await pieces.planned(report);
    },
    [subjects.report('plate_stored')]: async (payload) => {
      await pieces.plateStored(payload as PlateStoredReportV1);
    },
    [subjects.report('segment_done')]: async (payload) => {
      await pieces.segmentDone(payload as SegmentDoneReportV1);
    },
  };
}

export function reportDeadLetterHandlers(jobs: JobsService): DeadLetterHandlers {
  return {
    // A report we could not apply after every retry: the stale-job sweeper will still finish the job.
    [CONSUMERS.jobsReports]: (deadLetter) => logger.error(`report ${deadLetter.subject} dropped after ${deadLetter.deliveries} deliveries: ${deadLetter.error}`),
    // The render workers never settled this job's work message: fail the job so it is never lost.
    [CONSUMERS.renderWorker]: async (deadLetter) => {
      await jobs.failJob((deadLetter as DeadLetter<JobWorkRequestedV1>).payload.job_id, {
        code: 'generation_failed',
        message: `processing never finished: the work was delivered ${deadLetter.deliveries} times`,
      });
    },
  };
}
