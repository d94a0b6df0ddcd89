import { JobFailedError, VideoJobsError, type JobType } from '@vj/sdk';

export const JOB_TYPE_LABELS: Record<JobType, string> = {
  'clean-audio-video': 'Clean audio',
  'video-background-removal': 'Remove background',
};

export function formatCredits(credits: number): string {
  return `${credits.toLocaleString('en')} credit${credits === 1 ? '' : 's'}`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  for (; value >= 1024 && unit < units.length - 1; unit++) value /= 1024;
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatPercent(fraction: number): string {
  return `${Math.floor(Math.min(1, Math.max(0, fraction)) * 100)}%`;
}

export function shortId(id: string): string {
  return id.slice(0, 8);
}

// What went wrong, in a sentence with the API's code and the request id to quote to support.
export function describeError(error: unknown): string {
  if (error instanceof VideoJobsError) {
    const where = error.requestId ? `, request ${error.requestId}` : '';
    const fields = error.details?.map((detail) => (detail.field ? `${detail.field}: ${detail.message}` : detail.message)).join('; ');
    return `${error.message}${fields ? ` (${fields})` : ''} [${error.code}${where}]`;
  }
  if (error instanceof JobFailedError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export function isUnauthenticated(error: unknown): boolean {
  return error instanceof VideoJobsError && error.status === 401;
}
