import { NatsError } from 'nats';

// JetStream API error codes (nats-server errors.json) we branch on.
const STREAM_NOT_FOUND = 10059;
const CONSUMER_NOT_FOUND = 10014;
const NO_MESSAGE_FOUND = 10037;

export function isNotFound(error: unknown): boolean {
  const code = apiErrorCode(error);
  return code === STREAM_NOT_FOUND || code === CONSUMER_NOT_FOUND || code === NO_MESSAGE_FOUND;
}

export function isStreamNotFound(error: unknown): boolean {
  return apiErrorCode(error) === STREAM_NOT_FOUND;
}

function apiErrorCode(error: unknown): number | undefined {
  return error instanceof NatsError ? error.api_error?.err_code : undefined;
}
