// Every refusal of the API, and every failure to reach it, as one error type: `code` is the API's
// error code (or `network` / `timeout` when no answer came), `requestId` the id to quote to support.
export class VideoJobsError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code: string,
    readonly requestId: string | null,
    readonly details: { type: string; message: string; field?: string }[] | null = null,
  ) {
    super(message);
    this.name = 'VideoJobsError';
  }
}

// A job that ended FAILED or CANCELLED, from jobs.wait(): the job is attached.
export class JobFailedError extends Error {
  constructor(
    readonly job: { job_id: string; status: string; error?: { code: string; message: string } },
  ) {
    super(job.status === 'FAILED' ? `job ${job.job_id} failed: ${job.error?.code ?? 'unknown'}: ${job.error?.message ?? ''}` : `job ${job.job_id} was ${job.status.toLowerCase()}`);
    this.name = 'JobFailedError';
  }
}

type ErrorBody = { error?: { code?: string; message?: string; details?: VideoJobsError['details'] } };

export async function errorFromResponse(response: Response, parsed?: unknown): Promise<VideoJobsError> {
  let body = parsed as ErrorBody | undefined;
  if (body === undefined) body = (await response.json().catch(() => undefined)) as ErrorBody | undefined;
  const requestId = response.headers.get('x-request-id');
  const code = body?.error?.code ?? `http_${response.status}`;
  const message = body?.error?.message ?? `${response.status} ${response.statusText}`;
  return new VideoJobsError(message, response.status, code, requestId, body?.error?.details ?? null);
}
