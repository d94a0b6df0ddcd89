import { Logger } from '@nestjs/common';
import { histogram, LATENCY_BUCKETS, runWithLogContext, secondsSince, type LogContext } from '@vj/observability';
import type { HttpRequest, HttpResponse } from './http-types';

// What Express adds to a request once a route matched it.
interface RoutedRequest extends HttpRequest {
  route?: { path?: string };
  baseUrl?: string;
  params?: Record<string, string>;
  logContext?: LogContext;
}

interface FinishingResponse extends HttpResponse {
  statusCode: number;
  once(event: 'finish' | 'close', listener: () => void): void;
}

const logger = new Logger('Http');
const requestDuration = () =>
  histogram({
    name: 'http_request_duration_seconds',
    help: 'time to answer an HTTP request of the public API, by method, route (its pattern) and status',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
  });

// First middleware: times every request, records it by route pattern (never the raw URL: one series
// per job id would flood Prometheus) and writes one access log line. Successful reads are logged at
// debug: clients poll them.
export function httpObservabilityMiddleware(req: RoutedRequest, res: FinishingResponse, next: () => void): void {
  const started = process.hrtime.bigint();
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    const seconds = secondsSince(started);
    const status = res.statusCode;
    const route = routeOf(req, status);
    requestDuration().observe({ method: req.method, route, status: String(status) }, seconds);
    const context: LogContext = { ...req.logContext };
    if (!context.job_id && req.params?.job_id) context.job_id = req.params.job_id;
    // The log line may name the path itself (a 401's, a 404's); the query string stays out.
    const path = req.originalUrl.split('?')[0];
    const shown = route === 'unrouted' || route === 'unmatched' ? path : route;
    const line = { msg: `${req.method} ${shown} ${status} ${(seconds * 1000).toFixed(1)} ms`, method: req.method, route, path, status, duration_ms: Math.round(seconds * 1e4) / 10 };
    const quiet = (req.method === 'GET' || req.method === 'HEAD') && status < 400;
    runWithLogContext(context, () => (status >= 500 ? logger.error(line) : quiet ? logger.debug(line) : logger.log(line)));
  };
  res.once('finish', finish);
  // A client that hangs up before the answer: logged and counted all the same.
  res.once('close', finish);
  next();
}

// The route pattern Express matched (/v1/clean-audio-video/:job_id); requests refused before routing
// (401, 429, a malformed body) and unknown paths get one label each.
function routeOf(req: RoutedRequest, status: number): string {
  const pattern = req.route?.path;
  if (typeof pattern === 'string') return `${req.baseUrl ?? ''}${pattern}`;
  return status === 404 ? 'unmatched' : 'unrouted';
}

// After the body parser: body-parser may resume the request from the socket's own async context, which
// loses the request's log context; this puts it back, with the caller's account once authenticated.
export function restoreLogContextMiddleware(req: RoutedRequest, _res: unknown, next: () => void): void {
  const context = req.logContext ?? {};
  if (req.principal && !context.account_id) context.account_id = req.principal.accountId;
  req.logContext = context;
  runWithLogContext(context, next);
}
