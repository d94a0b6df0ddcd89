import type { FileObject, JobError, JobObject } from './job-object';
import type { JobRecordV1 } from './job-record';
import type { StoredFileV1, StoredResultV1 } from './stored-result';

export type SignFileUrl = (file: StoredFileV1) => Promise<string>;

// The answer to a create (and to its idempotent replay): always PROCESSING, and the only place
// credits_estimated appears (docs/spec/video-jobs-resources.md 2.1).
export function renderCreatedJob(record: JobRecordV1): JobObject {
  const job: JobObject = { job_id: record.job_id, status: 'PROCESSING' };
  if (record.credits_estimated !== null) job.credits_estimated = record.credits_estimated;
  return job;
}

// The job object with exactly the fields its state allows (docs/spec/video-jobs-resources.md
// sections 2 and 3): what GET answers, and what a webhook carries.
export async function renderJob(record: JobRecordV1, signUrl: SignFileUrl): Promise<JobObject> {
  const job: JobObject = { job_id: record.job_id, status: record.status };
  if (record.status === 'COMPLETED') {
    if (!record.result) throw new Error(`job ${record.job_id} is COMPLETED without a stored result`);
    job.result = await renderResult(record.result, signUrl);
    if (record.credits_charged !== null) job.credits_charged = record.credits_charged;
  }
  if (record.status === 'FAILED') job.error = renderError(record.error);
  return job;
}

// By what the type's result holds (JobTypeDefinition.result): one video, or a list of files.
async function renderResult(result: StoredResultV1, signUrl: SignFileUrl): Promise<NonNullable<JobObject['result']>> {
  if ('video' in result) return { video: await renderFile(result.video, signUrl) };
  return { files: await Promise.all(result.files.map((file) => renderFile(file, signUrl))) };
}

async function renderFile(file: StoredFileV1, signUrl: SignFileUrl): Promise<FileObject> {
  return { url: await signUrl(file), content_type: file.content_type, file_name: file.file_name, file_size: file.file_size };
}

function renderError(error: JobError | null): JobError {
  // A FAILED record always carries its error; the fallback keeps the response valid if one does not.
  if (!error) return { code: 'generation_failed', message: 'processing failed' };
  const rendered: JobError = { code: error.code, message: error.message };
  if (error.details !== undefined) {
    rendered.details =
      error.details?.map(({ type, message, field }) => (field === undefined ? { type, message } : { type, message, field })) ?? null;
  }
  return rendered;
}
