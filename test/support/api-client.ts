import { schemaViolations, type SchemaId } from '@vj/http-contracts';

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

// A tiny client for end-to-end tests: every JSON body it returns has been checked against the schema
// the caller names, so a test cannot forget the contract check.
export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey?: string,
  ) {}

  async request<T>(method: string, path: string, schema: SchemaId, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const parsed = (await response.json()) as T;
    const violations = schemaViolations(response.ok ? schema : 'RequestError', parsed);
    if (violations.length) {
      throw new Error(`${method} ${path} -> ${response.status} breaks ${response.ok ? schema : 'RequestError'}: ${violations.join('; ')}\n${JSON.stringify(parsed)}`);
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }
}
