import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { HttpRequest } from '../http/http-types';

// True when the Accept header ranks text/csv above JSON (by quality, then specificity, then its own
// order); no Accept header, */* or a tie is JSON.
export const PrefersCsv = createParamDecorator(
  (_data: unknown, context: ExecutionContext): boolean =>
    context.switchToHttp().getRequest<HttpRequest>().accepts(['application/json', 'text/csv']) === 'text/csv',
);
