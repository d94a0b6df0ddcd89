import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

// How a path answers a request: a status, or 'hold' (no answer until the connection is dropped).
export type Answer = number | 'hold';

export interface WebhookReceiver {
  url(path: string): string;
  received(path?: string): ReceivedWebhook[];
  // Connections accepted, answered or not (a refused destination makes none).
  connections(): number;
  // The answers a path gives, in order; the last one repeats (200 when none is set).
  answer(path: string, ...answers: Answer[]): void;
  close(): Promise<void>;
}

// A loopback receiver of webhooks that records every request and answers as told.
export async function startWebhookReceiver(host = '127.0.0.1'): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const answers = new Map<string, Answer[]>();
  let connections = 0;
  const respond = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = req.url ?? '/';
    received.push({ path, headers: req.headers as Record<string, string>, body, receivedAt: Date.now() });
    const queue = answers.get(path) ?? [];
    const answer = queue.length > 1 ? queue.shift()! : (queue[0] ?? 200);
    if (answer !== 'hold') res.writeHead(answer, { 'content-type': 'text/plain' }).end(`answered ${answer}`);
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => respond(req, res, body));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://${host}:${port}${path}`,
    received: (path) => received.filter((item) => path === undefined || item.path === path),
    connections: () => connections,
    answer: (path, ...list) => answers.set(path, list),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
