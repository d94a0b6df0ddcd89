import { ApiError } from '../http/api-error';
import type { HttpRequest, HttpResponse } from '../http/http-types';
import type { AuthenticateApiKeyUseCase } from '../identity';
import type { RateLimiter } from '../rate-limits/rate-limiter';

// RFC 9110 11.1: the scheme is case-insensitive ("bearer", "BEARER"); one or more spaces before the token.
const BEARER = /^Bearer +([^\s]+)$/i;

// Every /v1 request, before its body is even parsed: the API key, then its token bucket, so a hostile
// client pays for malformed and oversized bodies too and every /v1 answer carries the RateLimit
// headers. A request without a valid key takes from its address's bucket; an address whose bucket is
// empty is refused before any key lookup (RateLimiter.isBlocked), whatever key it sends, so a 429
// never tells a key guesser which key is right.
export function apiAccessMiddleware(authenticate: AuthenticateApiKeyUseCase, rateLimiter: RateLimiter) {
  return (req: HttpRequest, res: HttpResponse, next: (error?: unknown) => void): void => {
    check(req, res).then(() => next(), next);
  };

  async function check(req: HttpRequest, res: HttpResponse): Promise<void> {
    const address = req.ip ?? 'unknown';
    rateLimiter.refuseIfBlocked(address, res);
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? BEARER.exec(header) : null;
    const principal = match ? await authenticate.execute(match[1]) : null;
    if (!principal) {
      await rateLimiter.forUnauthenticated(address, res);
      throw match
        ? new ApiError(401, 'unauthenticated', 'unknown or revoked API key')
        : new ApiError(401, 'unauthenticated', 'missing or malformed Authorization header; expected "Bearer <api key>"');
    }
    req.principal = principal;
    await rateLimiter.forKey(principal, req.method, res);
  }
}
