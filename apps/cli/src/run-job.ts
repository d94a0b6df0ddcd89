import { dirname, join } from 'node:path';
import type { FileObject, Job, JobResource, JobType, VideoJobs } from '@vj/sdk';
import type { ProgressView } from './progress-view';

export interface RunOutcome {
  job: Job;
  outputs: string[];
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
): Promise<RunOutcome> {
  const video_url = /^https?:\/\//.test(input) ? input : (await client.uploads.upload(input, { onProgress: (sent, total) => view.upload(sent, total) })).video_url;
  const created = await resource.create({ video_url, ...options } as Parameters<JobResource<T>['create']>[0]);
  return followAndDownload(client, created, output, view, resource.type);
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
