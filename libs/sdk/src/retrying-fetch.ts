export interface RetryOptions {
  // Retries of a 429 or 503 (and of a request that got no answer), after Retry-After or a backoff.
  maxRetries: number;
  // The first backoff; each next one doubles, with jitter, up to maxDelayMs.
  baseDelayMs: number;
  maxDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const RETRIED_STATUSES = new Set([429, 503]);

export function retryDelayMs(attempt: number, response: Response | null, options: RetryOptions, random = Math.random): number {
  const header = response?.headers.get('retry-after');
  if (header) {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
    if (Number.isFinite(ms)) return Math.min(Math.max(0, ms), options.maxDelayMs);
  }
  const exponential = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return exponential / 2 + random() * (exponential / 2);
}

// A fetch that sends a request again on 429 and 503 (honouring Retry-After) and when no answer came.
// Creates carry an Idempotency-Key, so sending one again never makes a second job.
export function retryingFetch(inner: typeof fetch, options: RetryOptions): (request: Request) => Promise<Response> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= options.maxRetries;
      let response: Response | null = null;
      try {
        response = await inner(last ? request : request.clone());
      } catch (error) {
        if (last) throw error;
      }
      if (response && (last || !RETRIED_STATUSES.has(response.status))) return response;
      await response?.body?.cancel();
      await sleep(retryDelayMs(attempt, response, options));
    }
  };
}
