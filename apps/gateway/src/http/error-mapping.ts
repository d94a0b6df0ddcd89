import { HttpException } from '@nestjs/common';
import type { RequestErrorCode } from '@vj/contracts';
import { JobsServiceError, type JobsServiceErrorCode } from '../jobs/jobs-port';
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

const STATUS_BY_JOBS_CODE: Record<JobsServiceErrorCode, number> = {
  not_found: 404,
  conflict: 409,
  invalid_request: 422,
  internal: 500,
  unavailable: 503,
};

function internal(requestId: string): ApiError {
  // Internals stay in the log; the caller gets the id to quote.
  return new ApiError(500, 'internal', `internal error (request id ${requestId})`);
}

function fromStatus(status: number, message: string, requestId: string): ApiError {
  if (status >= 500 && status !== 503) return internal(requestId);
  return new ApiError(status, CODE_BY_STATUS[status] ?? 'invalid_request', message);
}

function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  const message = typeof response === 'object' && response !== null ? (response as { message?: unknown }).message : response;
  return Array.isArray(message) ? message.join('; ') : String(message ?? exception.message);
}

// Every failure becomes one request error; `logged` marks the ones whose cause must go to the log.
export function toApiError(exception: unknown, requestId: string): { error: ApiError; logged: boolean } {
  if (exception instanceof ApiError) return { error: exception.status === 500 ? internal(requestId) : exception, logged: exception.status >= 500 };
  if (exception instanceof JobsServiceError) {
    const status = STATUS_BY_JOBS_CODE[exception.code];
    if (status === 500) return { error: internal(requestId), logged: true };
    const message = status === 503 ? 'the jobs service is unavailable; retry later' : exception.message;
    return { error: fromStatus(status, message, requestId), logged: status === 503 };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    return { error: fromStatus(status, httpExceptionMessage(exception), requestId), logged: status >= 500 };
  }
  return { error: internal(requestId), logged: true };
}
