import { HttpException } from '@nestjs/common';
import type { RequestErrorCode } from '@vj/http-contracts';
import { isDatabaseOutage } from '@vj/database';
import { BillingServiceError, type BillingServiceErrorCode } from '../billing';
import { JobsServiceError, type JobsServiceErrorCode } from '../jobs';
import { ApiError } from './api-error';

const CODE_BY_STATUS: Record<number, RequestErrorCode> = {
  400: 'invalid_request',
  401: 'unauthenticated',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  422: 'invalid_request',
  429: 'rate_limited',
  503: 'unavailable',
};

// Both services refuse with invalid_request what the caller sent (a bad cursor): 422, like the gateway's
// own validation.
const STATUS_BY_SERVICE_CODE: Record<JobsServiceErrorCode | BillingServiceErrorCode, number> = {
  not_found: 404,
  conflict: 409,
  invalid_request: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

// An outage of ours (a service restarting, its database restarting) takes seconds.
const OUTAGE_RETRY_AFTER_SECONDS = 5;

// A refusal for the account's cap on PROCESSING jobs: a job ends within seconds to minutes.
export const PROCESSING_CAP_RETRY_AFTER_SECONDS = 5;

function internal(requestId: string): ApiError {
  // Internals stay in the log; the caller gets the id to quote.
  return new ApiError(500, 'internal', `internal error (request id ${requestId})`);
}

function fromStatus(status: number, message: string, requestId: string): ApiError {
  if (status >= 500 && status !== 503) return internal(requestId);
  return new ApiError(status, CODE_BY_STATUS[status] ?? 'invalid_request', message);
}

// A refusal of another service; its internal failures stay in the log, its outage is worth logging too.
function fromService(service: string, status: number, message: string, requestId: string): { error: ApiError; logged: boolean } {
  if (status === 500) return { error: internal(requestId), logged: true };
  if (status === 429) return { error: ApiError.rateLimited(message, PROCESSING_CAP_RETRY_AFTER_SECONDS), logged: false };
  if (status === 503) return { error: new ApiError(503, 'unavailable', `the ${service} service is unavailable; retry later`, null, OUTAGE_RETRY_AFTER_SECONDS), logged: true };
  return { error: fromStatus(status, message, requestId), logged: false };
}

function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  const message = typeof response === 'object' && response !== null ? (response as { message?: unknown }).message : response;
  return Array.isArray(message) ? message.join('; ') : String(message ?? exception.message);
}

// Every failure becomes one request error; `logged` marks the ones whose cause must go to the log.
export function toApiError(exception: unknown, requestId: string): { error: ApiError; logged: boolean } {
  if (exception instanceof ApiError) return { error: exception.status === 500 ? internal(requestId) : exception, logged: exception.status >= 500 };
  if (exception instanceof JobsServiceError) return fromService('jobs', STATUS_BY_SERVICE_CODE[exception.code], exception.message, requestId);
  if (exception instanceof BillingServiceError) {
    return fromService('billing', STATUS_BY_SERVICE_CODE[exception.code], exception.message, requestId);
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    return { error: fromStatus(status, httpExceptionMessage(exception), requestId), logged: status >= 500 };
  }
  // The gateway's own database restarting (API keys, uploads): an outage the client retries, not a 500.
  if (isDatabaseOutage(exception)) return { error: new ApiError(503, 'unavailable', 'the gateway cannot reach its database; retry later', null, OUTAGE_RETRY_AFTER_SECONDS), logged: true };
  return { error: internal(requestId), logged: true };
}
