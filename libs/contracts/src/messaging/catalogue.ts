import type { JobType } from '../job/job-type';
import type { PriceListRequestV1, PriceListV1 } from '../pricing/price-list';
import type { BillingEventKind, BillingRpcMethod, JobEventKind, JobReportKind, JobsRpcMethod, MediaRpcMethod, WorkPiece } from './names';
import type { JobPlannedReportV1, PlateStoredReportV1, PlatePassWorkV1, SegmentDoneReportV1, SegmentJoinWorkV1, SegmentWorkV1 } from './piece-payloads';
import type {
  BalanceRequestV1,
  BalanceV1,
  ChargeCapturedEventV1,
  ExtendHoldReplyV1,
  ExtendHoldRequestV1,
  GrantCreditsReplyV1,
  GrantCreditsRequestV1,
  HoldPlacedEventV1,
  HoldRejectedEventV1,
  HoldReleasedEventV1,
  LedgerPageV1,
  LedgerRequestV1,
  ProbeInputReplyV1,
  ProbeInputRequestV1,
  UsageReportV1,
  UsageRequestV1,
} from './billing-payloads';
import type {
  CancelAccountJobsReplyV1,
  CancelAccountJobsRequestV1,
  CancelJobRequestV1,
  CreateJobReplyV1,
  CreateJobRequestV1,
  DeleteJobReplyV1,
  DeleteJobRequestV1,
  GetJobRequestV1,
  JobCancelledEventV1,
  JobCompletedEventV1,
  JobCreatedEventV1,
  JobFailedEventV1,
  JobFailedReportV1,
  JobRetryingReportV1,
  JobStartedEventV1,
  JobStartedReportV1,
  JobSucceededReportV1,
  JobWorkRequestedV1,
  ListJobsReplyV1,
  ListJobsRequestV1,
  ReplayJobRequestV1,
} from './payloads';
import type { JobRecordV1 } from '../job/job-record';

// The typed catalogue: one payload type per subject kind.
export type WorkPayloads = { [T in JobType]: JobWorkRequestedV1<T> };

export interface ReportPayloads extends Record<JobReportKind, unknown> {
  started: JobStartedReportV1;
  retrying: JobRetryingReportV1;
  succeeded: JobSucceededReportV1;
  failed: JobFailedReportV1;
  planned: JobPlannedReportV1;
  plate_stored: PlateStoredReportV1;
  segment_done: SegmentDoneReportV1;
}

export interface WorkPiecePayloads extends Record<WorkPiece, unknown> {
  pass: PlatePassWorkV1;
  segment: SegmentWorkV1;
  join: SegmentJoinWorkV1;
}

export interface JobEventPayloads extends Record<JobEventKind, unknown> {
  created: JobCreatedEventV1;
  started: JobStartedEventV1;
  completed: JobCompletedEventV1;
  failed: JobFailedEventV1;
  cancelled: JobCancelledEventV1;
}

export interface JobsRpc extends Record<JobsRpcMethod, { request: unknown; reply: unknown }> {
  create: { request: CreateJobRequestV1; reply: CreateJobReplyV1 };
  replay: { request: ReplayJobRequestV1; reply: CreateJobReplyV1 | null };
  get: { request: GetJobRequestV1; reply: JobRecordV1 };
  list: { request: ListJobsRequestV1; reply: ListJobsReplyV1 };
  cancel: { request: CancelJobRequestV1; reply: JobRecordV1 };
  cancel_account: { request: CancelAccountJobsRequestV1; reply: CancelAccountJobsReplyV1 };
  delete: { request: DeleteJobRequestV1; reply: DeleteJobReplyV1 };
}

export interface BillingEventPayloads extends Record<BillingEventKind, unknown> {
  hold_placed: HoldPlacedEventV1;
  hold_rejected: HoldRejectedEventV1;
  charge_captured: ChargeCapturedEventV1;
  hold_released: HoldReleasedEventV1;
}

export interface BillingRpc extends Record<BillingRpcMethod, { request: unknown; reply: unknown }> {
  price_list: { request: PriceListRequestV1; reply: PriceListV1 };
  balance: { request: BalanceRequestV1; reply: BalanceV1 };
  usage: { request: UsageRequestV1; reply: UsageReportV1 };
  ledger: { request: LedgerRequestV1; reply: LedgerPageV1 };
  grant: { request: GrantCreditsRequestV1; reply: GrantCreditsReplyV1 };
  extend_hold: { request: ExtendHoldRequestV1; reply: ExtendHoldReplyV1 };
}

export interface MediaRpc extends Record<MediaRpcMethod, { request: unknown; reply: unknown }> {
  probe: { request: ProbeInputRequestV1; reply: ProbeInputReplyV1 };
}
