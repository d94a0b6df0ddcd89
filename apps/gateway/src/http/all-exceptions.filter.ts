import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { toApiError } from './error-mapping';
import type { HttpRequest, HttpResponse } from './http-types';

// The one place a failure becomes an HTTP answer: { error: { code, message, details } }.
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<HttpRequest>();
    const res = http.getResponse<HttpResponse>();
    const requestId = req.requestId ?? 'unknown';
    const { error, logged } = toApiError(exception, requestId);
    if (logged) {
      const cause = exception instanceof Error ? (exception.stack ?? exception.message) : String(exception);
      this.logger.error(`${req.method} ${req.originalUrl} -> ${error.status} [request id ${requestId}]: ${cause}`);
    }
    if (res.headersSent) return;
    if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
    res.status(error.status).json(error.toBody());
  }
}
