// The few Express request/response members the gateway uses (express ships no typings here).
export interface HttpRequest {
  method: string;
  originalUrl: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  requestId?: string;
  accountId?: string;
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
