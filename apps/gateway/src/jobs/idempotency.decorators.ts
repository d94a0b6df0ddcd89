import { randomUUID } from 'node:crypto';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { JobType } from '@vj/contracts';
import { ApiError } from '../http/api-error';
import type { HttpRequest } from '../http/http-types';
import { requestHash } from './request-hash';

// 1 to 255 visible ASCII characters (no spaces, no control characters).
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyInput {
  key: string;
  request_hash: string;
}

const REQUEST_ID_KEY = 'x-request-id ';

export function isRequestIdKey(key: string): boolean {
  return key.startsWith(REQUEST_ID_KEY);
}

// The Idempotency-Key of a create with the hash of its job type and raw body (before defaults). Without
// one, the request's own id stands in (x-request-id, the client's or ours): a create the gateway retries
// after a timed-out call, or a client retries with the same x-request-id, makes one job (decision 0029).
// The space keeps these apart from every key a client can send.
export const Idempotency = createParamDecorator((jobType: JobType, context: ExecutionContext): IdempotencyInput => {
  const req = context.switchToHttp().getRequest<HttpRequest>();
  return idempotencyOf(req, requestHash(jobType, req.body));
});

// The same for an export (decision 0093): the source job is part of the hash, so one key sent for the
// exports of two jobs is a conflict, not a replay of the first.
export const ExportIdempotency = createParamDecorator((jobType: JobType, context: ExecutionContext): IdempotencyInput => {
  const req = context.switchToHttp().getRequest<HttpRequest & { params?: Record<string, string> }>();
  return idempotencyOf(req, requestHash(`${jobType} export of ${req.params?.job_id ?? ''}`, req.body));
});

function idempotencyOf(req: HttpRequest, request_hash: string): IdempotencyInput {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return { key: `${REQUEST_ID_KEY}${req.requestId ?? randomUUID()}`, request_hash };
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw ApiError.malformed('Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  return { key, request_hash };
}
