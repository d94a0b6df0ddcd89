import { ApiError } from './api-error';

interface BodyParserError {
  status?: number;
  type?: string;
  expose?: boolean;
}

// body-parser fails with http-errors objects; they become request errors before they reach Nest.
export function bodyParserErrorsMiddleware(error: unknown, _req: unknown, _res: unknown, next: (error: unknown) => void): void {
  const { status, type, expose } = (error ?? {}) as BodyParserError;
  if (type === 'entity.parse.failed') return next(ApiError.malformed('request body is not valid JSON'));
  if (type === 'entity.too.large') return next(ApiError.tooLarge('request body is too large'));
  if (expose && typeof status === 'number' && status >= 400 && status < 500) {
    return next(new ApiError(status, 'invalid_request', (error as Error).message));
  }
  next(error);
}
