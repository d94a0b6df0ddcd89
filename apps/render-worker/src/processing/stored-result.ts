import type { JobReportKind, JobType, StoredExportSourceV1, StoredFileV1, StoredQualityV1, StoredResultV1 } from '@vj/contracts';

// One folder per delivery: two attempts racing (a worker thought lost, then back) never write, nor
// delete, each other's objects; the jobs service publishes the winner's keys only.
export function resultObjectKey(accountId: string, jobId: string, attempt: number, fileName: string): string {
  return `${resultPrefix(accountId, jobId)}${attempt}/${fileName}`;
}

// Everything any attempt of a job stored: what the retention sweeper deletes with the job's files.
export function resultPrefix(accountId: string, jobId: string): string {
  return `results/${accountId}/${jobId}/`;
}

// The result shape of each job type (docs/spec/video-jobs-resources.md 2.4 and 2.5), with what it kept
// for exports (decision 0093) and what it measured of its work (decision 0096).
export function storedResult(jobType: JobType, files: StoredFileV1[], kept?: StoredExportSourceV1, quality?: StoredQualityV1): StoredResultV1 {
  const own = jobType === 'clean-audio-video' ? { kept: 'stems', quality: 'clean-audio' } : { kept: 'matte', quality: 'cutout' };
  if (kept && kept.kind !== own.kept) throw new Error(`${jobType} cannot keep ${kept.kind}`);
  if (quality && quality.kind !== own.quality) throw new Error(`${jobType} cannot measure ${quality.kind}`);
  if (jobType === 'clean-audio-video') {
    if (files.length !== 1) throw new Error(`clean-audio-video produces one file, got ${files.length}`);
    return { job_type: jobType, video: files[0], ...(kept?.kind === 'stems' && { export_source: kept }), ...(quality?.kind === 'clean-audio' && { quality }) };
  }
  return { job_type: jobType, files, ...(kept?.kind === 'matte' && { export_source: kept }), ...(quality?.kind === 'cutout' && { quality }) };
}

// Nats-Msg-Id of a report: a redelivered attempt that publishes again is dropped as a duplicate.
export function reportMsgId(jobId: string, kind: JobReportKind, attempt: number): string {
  return `${jobId}:${kind}:${attempt}`;
}
