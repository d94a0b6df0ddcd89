import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthenticateApiKeyUseCase } from '../identity/authenticate-api-key.use-case';
import { ApiError } from '../http/api-error';
import type { HttpRequest } from '../http/http-types';
import { PUBLIC_ROUTE } from './public-route.decorator';

const BEARER = /^Bearer ([^\s]+)$/;

// Global: every route needs `Authorization: Bearer <api key>` unless marked @PublicRoute().
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticate: AuthenticateApiKeyUseCase,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<HttpRequest>();
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? BEARER.exec(header) : null;
    if (!match) throw new ApiError(401, 'unauthenticated', 'missing or malformed Authorization header; expected "Bearer <api key>"');
    const accountId = await this.authenticate.execute(match[1]);
    if (!accountId) throw new ApiError(401, 'unauthenticated', 'unknown API key');
    req.accountId = accountId;
    return true;
  }
}
