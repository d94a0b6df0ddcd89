import type { RequestErrorCode } from '@vj/http-contracts';

export interface RequestErrorDetail {
  type: string;
  message: string;
  field?: string;
}

export interface RequestErrorBody {
  error: { code: RequestErrorCode; message: string; details: RequestErrorDetail[] | null };
}

// A request error as docs/spec/api-v1.md "Request errors" defines it: HTTP status, stable code,
// optional details.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: RequestErrorCode,
    message: string,
    readonly details: RequestErrorDetail[] | null = null,
    // Sent as Retry-After (429, 503).
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  static rateLimited(message: string, retryAfterSeconds: number): ApiError {
    return new ApiError(429, 'rate_limited', message, null, retryAfterSeconds);
  }

  static invalid(message: string, details: RequestErrorDetail[] | null = null): ApiError {
    return new ApiError(422, 'invalid_request', message, details);
  }

  static malformed(message: string): ApiError {
    return new ApiError(400, 'invalid_request', message);
  }

  static invalidField(field: string, message: string): ApiError {
    return ApiError.invalid(message, [{ type: 'invalid_value', field, message }]);
  }

  static notFound(message: string): ApiError {
    return new ApiError(404, 'not_found', message);
  }

  static conflict(message: string): ApiError {
    return new ApiError(409, 'conflict', message);
  }

  static tooLarge(message: string): ApiError {
    return new ApiError(413, 'payload_too_large', message);
  }

  toBody(): RequestErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}
