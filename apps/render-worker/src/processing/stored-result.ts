import { jobTypeDefinition, type JobReportKind, type JobType, type StoredExportSourceV1, type StoredFileV1, type StoredQualityV1, type StoredResultV1 } from '@vj/contracts';

// One folder per delivery: two attempts racing (a worker thought lost, then back) never write, nor
// delete, each other's objects; the jobs service publishes the winner's keys only.
export function resultObjectKey(accountId: string, jobId: string, attempt: number, fileName: string): string {
  return `${resultPrefix(accountId, jobId)}${attempt}/${fileName}`;
}

// Everything any attempt of a job stored: what the retention sweeper deletes with the job's files.
export function resultPrefix(accountId: string, jobId: string): string {
  return `results/${accountId}/${jobId}/`;
}

// The result shape of each job type (docs/spec/video-jobs-resources.md 2.4 and 2.5, by its
// definition's `result`), with what it kept and what it measured (the kinds its definition names).
export function storedResult(jobType: JobType, files: StoredFileV1[], kept?: StoredExportSourceV1, quality?: StoredQualityV1): StoredResultV1 {
  const definition = jobTypeDefinition(jobType);
  if (kept && kept.kind !== definition.keeps) throw new Error(`${jobType} cannot keep ${kept.kind}`);
  if (quality && quality.kind !== definition.measures) throw new Error(`${jobType} cannot measure ${quality.kind}`);
  const extras = { ...(kept && { export_source: kept }), ...(quality && { quality }) };
  if (definition.result === 'video') {
    if (files.length !== 1) throw new Error(`${jobType} produces one file, got ${files.length}`);
    return { job_type: jobType, video: files[0], ...extras } as StoredResultV1;
  }
  return { job_type: jobType, files, ...extras } as StoredResultV1;
}

// Nats-Msg-Id of a report: a redelivered attempt that publishes again is dropped as a duplicate.
export function reportMsgId(jobId: string, kind: JobReportKind, attempt: number): string {
  return `${jobId}:${kind}:${attempt}`;
}
