import type { components } from './generated/api';

type Schemas = components['schemas'];

export type JobType = 'clean-audio-video' | 'video-background-removal';
export type CleanAudioVideoJob = Schemas['CleanAudioVideoJob'];
export type VideoBackgroundRemovalJob = Schemas['VideoBackgroundRemovalJob'];
export type Job = CleanAudioVideoJob | VideoBackgroundRemovalJob;
export type JobStatus = Job['status'];
export type FileObject = Schemas['FileObject'];
export type CreateCleanAudioVideoJob = Schemas['CreateCleanAudioVideoJobRequest'];
export type CreateVideoBackgroundRemovalJob = Schemas['CreateVideoBackgroundRemovalJobRequest'];
export type ExportCleanAudioVideoJob = Schemas['ExportCleanAudioVideoJobRequest'];
export type ExportVideoBackgroundRemovalJob = Schemas['ExportVideoBackgroundRemovalJobRequest'];
export type Upload = Schemas['Upload'];
export type UploadPartUrls = Schemas['UploadPartUrls'];
export type UploadState = Schemas['UploadState'];
export type Estimate = Schemas['Estimate'];
export type Balance = Schemas['Balance'];
export type UsageReport = Schemas['UsageReport'];
export type LedgerEntry = Schemas['LedgerPage']['data'][number];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointWithSecret = Schemas['WebhookEndpointWithSecret'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type CleanAudioVideoReport = Schemas['CleanAudioVideoReport'];
export type VideoBackgroundRemovalReport = Schemas['VideoBackgroundRemovalReport'];
export type JobReport = CleanAudioVideoReport | VideoBackgroundRemovalReport;

export interface JobsByType {
  'clean-audio-video': { job: CleanAudioVideoJob; create: CreateCleanAudioVideoJob; export: ExportCleanAudioVideoJob; report: CleanAudioVideoReport };
  'video-background-removal': { job: VideoBackgroundRemovalJob; create: CreateVideoBackgroundRemovalJob; export: ExportVideoBackgroundRemovalJob; report: VideoBackgroundRemovalReport };
}

export const FINAL_STATUSES: readonly JobStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED'];
