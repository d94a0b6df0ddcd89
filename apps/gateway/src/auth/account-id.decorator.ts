import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { HttpRequest } from '../http/http-types';

// The account the bearer key belongs to, set by BearerAuthGuard.
export const AccountId = createParamDecorator((_data: unknown, context: ExecutionContext): string => {
  const principal = context.switchToHttp().getRequest<HttpRequest>().principal;
  if (!principal) throw new Error('AccountId used on a route without BearerAuthGuard');
  return principal.accountId;
});
