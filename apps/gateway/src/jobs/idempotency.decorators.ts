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

// The Idempotency-Key of a create with the hash of its job type and raw body (before defaults), or undefined.
export const Idempotency = createParamDecorator((jobType: JobType, context: ExecutionContext): IdempotencyInput | undefined => {
  const req = context.switchToHttp().getRequest<HttpRequest>();
  const key = req.headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
    throw ApiError.malformed('Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  return { key, request_hash: requestHash(jobType, req.body) };
});
