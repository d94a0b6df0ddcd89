import { JobFailedError, VideoJobsError } from '@vj/sdk';
import { ConfigError } from './config';

// Exit codes by outcome, for scripts: what failed decides the number, not the message.
export const EXIT = {
  ok: 0,
  // The job ended FAILED or CANCELLED.
  jobFailed: 1,
  // Bad arguments or no API key.
  usage: 2,
  // The API refused the request (4xx: invalid, unauthenticated, not found, rate limited...).
  refused: 3,
  // The API or storage could not be reached, or answered 5xx.
  unavailable: 4,
} as const;

export function exitCodeOf(error: unknown): number {
  if (error instanceof JobFailedError) return EXIT.jobFailed;
  if (error instanceof ConfigError) return EXIT.usage;
  if (error instanceof VideoJobsError) return error.status !== null && error.status < 500 ? EXIT.refused : EXIT.unavailable;
  return EXIT.unavailable;
}

export function describeError(error: unknown): string {
  if (error instanceof VideoJobsError) return `${error.code}: ${error.message}${error.requestId ? ` (request id ${error.requestId})` : ''}`;
  return error instanceof Error ? error.message : String(error);
}
