import type { LogContext } from '@vj/observability';
import type { Principal } from '../identity';

// The few Express request/response members the gateway uses (express ships no typings here).
export interface HttpRequest {
  method: string;
  originalUrl: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  requestId?: string;
  // Its log lines' request_id, account_id and job_id (request-id.middleware.ts, http-observability.middleware.ts).
  logContext?: LogContext;
  // Set by BearerAuthGuard.
  principal?: Principal;
  // The client's address (the socket's: no proxy is trusted).
  ip?: string;
  // Content negotiation: the offered type the Accept header ranks first, or false when none is acceptable.
  accepts(types: string[]): string | false;
}

export interface HttpResponse {
  status(code: number): HttpResponse;
  json(body: unknown): void;
  setHeader(name: string, value: string): void;
  getHeader(name: string): unknown;
  readonly headersSent: boolean;
}
