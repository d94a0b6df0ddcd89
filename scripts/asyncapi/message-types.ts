import type { JobWorkRequestedV1 } from '@vj/contracts';

// Roots for the schema generator: a generic type is no root, so each job type's work message is named.
export type CleanAudioVideoWorkV1 = JobWorkRequestedV1<'clean-audio-video'>;
export type VideoBackgroundRemovalWorkV1 = JobWorkRequestedV1<'video-background-removal'>;

export type {
  ChargeCapturedEventV1,
  DeadLetterRecordV1,
  HoldPlacedEventV1,
  HoldRejectedEventV1,
  HoldReleasedEventV1,
  JobCancelledEventV1,
  JobCompletedEventV1,
  JobCreatedEventV1,
  JobFailedEventV1,
  JobFailedReportV1,
  JobRetryingReportV1,
  JobStartedEventV1,
  JobStartedReportV1,
  JobSucceededReportV1,
  JobUpdateV1,
  JobPlannedReportV1,
  PlateStoredReportV1,
  SegmentDoneReportV1,
  PlatePassWorkV1,
  SegmentWorkV1,
  SegmentJoinWorkV1,
} from '@vj/contracts';
