import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { HttpRequest } from '../http/http-types';
import type { Principal } from '../identity';

// The whole caller (account, key, the account's limits), set by BearerAuthGuard.
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<HttpRequest>().principal;
  if (!principal) throw new Error('Caller used on a route without BearerAuthGuard');
  return principal;
});
