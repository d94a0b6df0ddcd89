import type { Server } from 'node:http';
import type { GatewayConfig } from '../gateway.env';

// Node's defaults (5 s keep-alive) are below the idle timeouts of load balancers (60 s) and of some
// clients: a request sent on a connection at the moment the gateway closes it fails with "other side
// closed" (UND_ERR_SOCKET). Kept above theirs, the client side always closes first. A whole request
// body is small JSON (uploads go to S3), so the request timeout is the headers' plus a margin.
export function applyHttpTimeouts(server: Server, config: Pick<GatewayConfig, 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS' | 'HTTP_HEADERS_TIMEOUT_SECONDS'>): void {
  server.keepAliveTimeout = config.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS * 1000;
  server.headersTimeout = config.HTTP_HEADERS_TIMEOUT_SECONDS * 1000;
  server.requestTimeout = (config.HTTP_HEADERS_TIMEOUT_SECONDS + 30) * 1000;
}
