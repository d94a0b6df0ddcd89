import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixedRate } from './fixed-rate';

describe('fixedRate', () => {
  let server: Server;
  let url: string;
  let inFlight = 0;
  let mostInFlight = 0;

  beforeAll(async () => {
    // Answers after 200 ms; the path /reset closes the connection instead, /missing is a 404.
    server = createServer((req, res) => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        if (req.url === '/reset') return req.socket.destroy();
        res.writeHead(req.url === '/missing' ? 404 : 200).end('{}');
      }, 200);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  beforeEach(() => (mostInFlight = 0));

  it('spreads the requests over the second instead of sending them at once', async () => {
    const result = await fixedRate({ rate: 20, seconds: 1, next: () => ({ url, method: 'GET' }) });
    expect(result).toMatchObject({ ok: 20, non2xx: 0, errors: 0 });
    // One every 50 ms, each answered in 200: about 4 at a time. A burst would have had all 20.
    expect(mostInFlight).toBeLessThan(15);
    expect(result.latencies).toHaveLength(20);
    // Each held 200 ms by the server (a timer may fire a millisecond early).
    expect(Math.min(...result.latencies)).toBeGreaterThan(190);
  });

  it('counts answers that are not 2xx and requests that got no answer apart', async () => {
    const paths = ['/', '/missing', '/reset'];
    let i = 0;
    const result = await fixedRate({ rate: 30, amount: 6, next: () => ({ url: `${url}${paths[i++ % 3]}`, method: 'POST', body: 'x' }) });
    expect(result).toMatchObject({ ok: 2, non2xx: 2, errors: 2 });
    expect(result.latencies).toHaveLength(4);
  });

  it('counts an answer later than the timeout as an error', async () => {
    const result = await fixedRate({ rate: 10, amount: 2, timeoutMs: 50, next: () => ({ url, method: 'GET' }) });
    expect(result).toMatchObject({ ok: 0, errors: 2 });
  });
});
