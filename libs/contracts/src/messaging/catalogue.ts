import type { JobType } from '../job/job-type';
import type { JobEventKind, JobReportKind, JobsRpcMethod } from './names';
import type {
  CancelJobRequestV1,
  CreateJobReplyV1,
  CreateJobRequestV1,
  GetJobRequestV1,
  JobCancelledEventV1,
  JobCompletedEventV1,
  JobCreatedEventV1,
  JobFailedEventV1,
  JobFailedReportV1,
  JobStartedReportV1,
  JobSucceededReportV1,
  JobWorkRequestedV1,
  ListJobsReplyV1,
  ListJobsRequestV1,
} from './payloads';
import type { JobRecordV1 } from '../job/job-record';

// The typed catalogue: one payload type per subject kind.
export interface WorkPayloads extends Record<JobType, JobWorkRequestedV1> {
  'video-background-removal': JobWorkRequestedV1<'video-background-removal'>;
  'clean-audio-video': JobWorkRequestedV1<'clean-audio-video'>;
}

export interface ReportPayloads extends Record<JobReportKind, unknown> {
  started: JobStartedReportV1;
  succeeded: JobSucceededReportV1;
  failed: JobFailedReportV1;
}

export interface JobEventPayloads extends Record<JobEventKind, unknown> {
  created: JobCreatedEventV1;
  completed: JobCompletedEventV1;
  failed: JobFailedEventV1;
  cancelled: JobCancelledEventV1;
}

export interface JobsRpc extends Record<JobsRpcMethod, { request: unknown; reply: unknown }> {
  create: { request: CreateJobRequestV1; reply: CreateJobReplyV1 };
  get: { request: GetJobRequestV1; reply: JobRecordV1 };
  list: { request: ListJobsRequestV1; reply: ListJobsReplyV1 };
  cancel: { request: CancelJobRequestV1; reply: JobRecordV1 };
}
