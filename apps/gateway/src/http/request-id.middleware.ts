import { runWithLogContext } from '@vj/observability';
import { randomUUID } from 'node:crypto';
import type { HttpRequest, HttpResponse } from './http-types';

const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/;

// Every response carries x-request-id; every log line of the request carries it as request_id, and so
// do the NATS messages it sends (JetStreamPublisher, RpcClient), so a caller's report leads to the cause.
export function requestIdMiddleware(req: HttpRequest, res: HttpResponse, next: () => void): void {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
  req.requestId = id;
  res.setHeader('x-request-id', id);
  req.logContext = { request_id: id };
  runWithLogContext(req.logContext, next);
}
