import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiError } from '../http/api-error';
import type { HttpRequest } from '../http/http-types';
import { PUBLIC_ROUTE } from './public-route.decorator';

// Global: every route needs the caller apiAccessMiddleware found for its API key, unless marked
// @PublicRoute(). The middleware runs on /v1 before the body parser; a route outside /v1 that is not
// public is refused here.
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    if (context.switchToHttp().getRequest<HttpRequest>().principal) return true;
    throw new ApiError(401, 'unauthenticated', 'missing or malformed Authorization header; expected "Bearer <api key>"');
  }
}
