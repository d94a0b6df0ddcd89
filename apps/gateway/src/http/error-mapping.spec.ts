import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { schemaViolations } from '@vj/http-contracts';
import { BillingServiceError } from '../billing';
import { JobsServiceError } from '../jobs';
import { ApiError } from './api-error';
import { toApiError } from './error-mapping';

const RID = 'req-1';

function mapped(exception: unknown) {
  const { error, logged } = toApiError(exception, RID);
  expect(schemaViolations('RequestError', error.toBody())).toEqual([]);
  return { status: error.status, code: error.code, message: error.message, logged };
}

describe('toApiError', () => {
  it.each([
    ['not_found', 404, 'not_found'],
    ['conflict', 409, 'conflict'],
    ['invalid_request', 422, 'invalid_request'],
    ['unavailable', 503, 'unavailable'],
  ] as const)('maps the jobs service code %s to HTTP %i %s', (code, status, requestCode) => {
    expect(mapped(new JobsServiceError(code, 'why'))).toMatchObject({ status, code: requestCode });
  });

  it.each([
    ['not_found', 404, 'not_found'],
    ['conflict', 409, 'conflict'],
    ['invalid_request', 422, 'invalid_request'],
    ['unavailable', 503, 'unavailable'],
  ] as const)('maps the billing code %s to HTTP %i %s', (code, status, requestCode) => {
    expect(mapped(new BillingServiceError(code, 'why'))).toMatchObject({ status, code: requestCode });
  });

  it("maps the jobs service's rate_limited (the account's cap on PROCESSING jobs) to 429 with Retry-After", () => {
    const { error, logged } = toApiError(new JobsServiceError('rate_limited', 'the account has 50 jobs PROCESSING'), RID);
    expect({ status: error.status, code: error.code, retryAfter: error.retryAfterSeconds, logged }).toEqual({ status: 429, code: 'rate_limited', retryAfter: 5, logged: false });
    expect(error.message).toBe('the account has 50 jobs PROCESSING');
  });

  it('names the service that is unavailable, says when to retry, and logs the outage', () => {
    expect(mapped(new BillingServiceError('unavailable', 'billing.estimate: 503'))).toEqual({
      status: 503,
      code: 'unavailable',
      message: 'the billing service is unavailable; retry later',
      logged: true,
    });
    expect(toApiError(new JobsServiceError('unavailable', 'jobs cannot reach its database; try again'), RID).error.retryAfterSeconds).toBe(5);
  });

  it('hides an internal billing error behind the request id and logs it', () => {
    expect(mapped(new BillingServiceError('internal', 'ledger locked'))).toMatchObject({ status: 500, code: 'internal', logged: true });
  });

  it('hides an internal jobs service error behind the request id and logs it', () => {
    expect(mapped(new JobsServiceError('internal', 'db password wrong'))).toEqual({
      status: 500,
      code: 'internal',
      message: `internal error (request id ${RID})`,
      logged: true,
    });
  });

  it('hides an unexpected exception behind the request id and logs it', () => {
    const result = mapped(new TypeError('cannot read x of undefined'));
    expect(result).toMatchObject({ status: 500, code: 'internal', logged: true });
    expect(result.message).not.toContain('undefined');
  });

  it('answers 503 with Retry-After when the gateway cannot reach its own database, and logs it', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(mapped(refused)).toEqual({ status: 503, code: 'unavailable', message: 'the gateway cannot reach its database; retry later', logged: true });
    expect(toApiError(refused, RID).error.retryAfterSeconds).toBe(5);
  });

  it('passes request errors through unchanged', () => {
    expect(mapped(ApiError.invalidField('video_url', 'bad'))).toEqual({ status: 422, code: 'invalid_request', message: 'bad', logged: false });
  });

  it('maps Nest HTTP exceptions by status', () => {
    expect(mapped(new NotFoundException('Cannot GET /x'))).toMatchObject({ status: 404, code: 'not_found', message: 'Cannot GET /x' });
    expect(mapped(new BadRequestException('nope'))).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(mapped(new PayloadTooLargeException())).toMatchObject({ status: 413, code: 'payload_too_large' });
  });
});
