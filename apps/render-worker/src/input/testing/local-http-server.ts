import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalHttpServer {
  // http://host:port, without a trailing slash.
  base: string;
  close(): Promise<void>;
}

// An HTTP server on a loopback address for the input tests. close() also ends the kept-alive and the
// deliberately stalled responses, which would otherwise hold the server open.
export async function startLocalHttpServer(handler: RequestListener, host = '127.0.0.1'): Promise<LocalHttpServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    base: `http://${host}:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
