import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';

export interface LyingServer {
  url: string;
  // Full GETs served, as the transload makes them.
  fullGets: number;
  close(): Promise<void>;
}

// A URL that answers a ranged request (the duration probe's) with one video and a plain GET (the job's
// transload) with another: what a client that wants a long job for the price of a short one serves.
export async function startLyingServer(rangedPath: string, fullPath: string): Promise<LyingServer> {
  const ranged = readFileSync(rangedPath);
  const full = readFileSync(fullPath);
  const state = { fullGets: 0 };
  const server: Server = createServer((req, res) => {
    if (req.headers.range) {
      res.writeHead(206, { 'content-type': 'video/mp4', 'content-length': ranged.length, 'content-range': `bytes 0-${ranged.length - 1}/${ranged.length}` }).end(ranged);
      return;
    }
    state.fullGets++;
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': full.length }).end(full);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/video.mp4`,
    get fullGets() {
      return state.fullGets;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// A URL whose answer never ends: a job reading it stays PROCESSING until it is cancelled.
export async function startStallingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-length': 10_000_000, 'content-type': 'video/mp4' }).write('x'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/stall.mp4`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
