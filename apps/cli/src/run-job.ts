import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { VideoJobsError, type FileObject, type Job, type JobResource, type JobType, type VideoJobs } from '@vj/sdk';
import type { PendingUploads } from './pending-uploads';
import type { ProgressView } from './progress-view';

export interface RunOutcome {
  job: Job;
  outputs: string[];
}

// How the input is uploaded: multipart uploads are remembered in `pending` until complete, and with
// `resume` one this file left unfinished is resumed instead of started again.
export interface UploadPlan {
  pending: PendingUploads;
  apiUrl: string;
  resume: boolean;
}

// Upload, create, follow, download: one command's whole job. The first result file goes to `output`,
// any other (the alpha matte of an h264 cut-out) beside it under its own name.
export async function runJob<T extends JobType>(
  client: VideoJobs,
  resource: JobResource<T>,
  input: string,
  output: string,
  options: Record<string, unknown>,
  view: ProgressView,
  plan: UploadPlan,
): Promise<RunOutcome> {
  const video_url = /^https?:\/\//.test(input) ? input : await uploadInput(client, input, view, plan);
  const created = await resource.create({ video_url, ...options } as Parameters<JobResource<T>['create']>[0]);
  return followAndDownload(client, created, output, view, resource.type);
}

export async function uploadInput(client: VideoJobs, input: string, view: ProgressView, { pending, apiUrl, resume }: UploadPlan): Promise<string> {
  const file = statSync(input);
  const onProgress = (sent: number, total: number) => view.upload(sent, total);
  const unfinished = resume ? pending.find(input, file, apiUrl) : null;
  if (unfinished) {
    try {
      await client.uploads.resume(unfinished.upload_id, input, { onProgress });
      pending.forget(input);
      return unfinished.video_url;
    } catch (error) {
      // Expired, aborted or not this account's: start again.
      if (!(error instanceof VideoJobsError && error.status === 404)) throw error;
      pending.forget(input);
    }
  }
  const upload = await client.uploads.upload(input, {
    onProgress,
    onStart: ({ upload_id, video_url }) => pending.remember(input, { upload_id, video_url, size: file.size, mtime_ms: file.mtimeMs, api_url: apiUrl }),
  });
  pending.forget(input);
  return upload.video_url;
}

// Follow a created job (a create's, an export's) to its end, then download what it made.
// Without its type, the SDK finds it.
export async function followAndDownload(client: VideoJobs, created: Job, output: string, view: ProgressView, type?: JobType): Promise<RunOutcome> {
  view.line(`job ${created.job_id} ${created.status}${created.credits_estimated !== undefined ? `, ${created.credits_estimated} credits estimated` : ''}`);
  const job = await client.jobs.wait(created, { type, charged: true, onProgress: ({ stage, progress }) => view.processing(stage, progress) });
  view.processing('done', 1);
  view.line(`job ${job.job_id} ${job.status}${job.credits_charged !== undefined ? `, ${job.credits_charged} credits charged` : ''}`);
  const files: FileObject[] = 'result' in job && job.result ? ('video' in job.result ? [job.result.video] : (job.result.files ?? [])) : [];
  const outputs = files.map((file, index) => (index === 0 ? output : join(dirname(output), file.file_name ?? `output-${index}`)));
  for (const [index, file] of files.entries()) await client.download(file, outputs[index]!, (written, total) => view.download(written, total));
  return { job, outputs };
}
