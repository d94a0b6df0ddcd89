import { startNatsServer, type LocalNatsServer } from '@vj/local-stack';
import { connect, type Msg, type NatsConnection } from 'nats';
import { flushOncePerLoopTurn } from './writes-per-loop-turn';

// The socket writes a connection makes: its transport's sends, counted (nats.js internals, as the
// code under test reaches them).
function countWrites(nc: NatsConnection): () => number {
  const transport = (nc as unknown as { protocol: { transport: { send(frame: Uint8Array): void } } }).protocol.transport;
  const send = transport.send.bind(transport);
  let writes = 0;
  transport.send = (frame) => {
    writes += 1;
    send(frame);
  };
  return () => writes;
}

// Ten messages, each sent by its own callback of one turn of the event loop (as ten HTTP requests
// read in one turn are), then one more turn for the flush.
async function publishFromTenCallbacks(nc: NatsConnection, subject: string): Promise<void> {
  await Promise.all(Array.from({ length: 10 }, (_, i) => new Promise<void>((resolve) => setImmediate(() => resolve(nc.publish(subject, String(i)))))));
  await new Promise((resolve) => setImmediate(resolve));
}

describe('a connection writes once per turn of the event loop', () => {
  let nats: LocalNatsServer;
  let receiver: NatsConnection;
  const received: string[] = [];

  beforeAll(async () => {
    nats = await startNatsServer();
    receiver = await connect({ servers: nats.url });
    receiver.subscribe('turn.>', { callback: (_error, msg: Msg) => received.push(`${msg.subject} ${msg.string()}`) });
    receiver.subscribe('echo', { callback: (_error, msg: Msg) => msg.respond(msg.data) });
    await receiver.flush();
  });

  afterAll(async () => {
    await receiver.close();
    await nats.stop();
  });

  it('sends what ten callbacks of one turn published in one write, in order, where the library made ten', async () => {
    const plain = await connect({ servers: nats.url });
    const batched = await connect({ servers: nats.url });
    try {
      expect(flushOncePerLoopTurn(batched)).toBe(true);
      const plainWrites = countWrites(plain);
      const batchedWrites = countWrites(batched);
      await publishFromTenCallbacks(plain, 'turn.plain');
      await publishFromTenCallbacks(batched, 'turn.batched');
      expect(plainWrites()).toBe(10);
      expect(batchedWrites()).toBe(1);
      await Promise.all([plain.flush(), batched.flush(), receiver.flush()]);
      const numbers = Array.from({ length: 10 }, (_, i) => String(i));
      expect(received.filter((line) => line.startsWith('turn.batched')).map((line) => line.split(' ')[1])).toEqual(numbers);
      expect(received.filter((line) => line.startsWith('turn.plain'))).toHaveLength(10);
    } finally {
      await Promise.all([plain.close(), batched.close()]);
    }
  });

  it('still answers a lone request, and drains before it closes', async () => {
    const nc = await connect({ servers: nats.url });
    flushOncePerLoopTurn(nc);
    const reply = await nc.request('echo', 'ping', { timeout: 1_000 });
    expect(reply.string()).toBe('ping');
    nc.publish('turn.last', 'before drain');
    await nc.drain();
    await receiver.flush();
    expect(received).toContain('turn.last before drain');
  });
});
