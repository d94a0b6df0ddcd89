import { startNatsServer, type LocalNatsServer } from '@vj/local-stack';
import { connect, headers, type Msg, type NatsConnection } from 'nats';
import { ReplyInbox } from './reply-inbox';

const text = (data: Uint8Array) => Buffer.from(data).toString();
const bytes = (value: string) => Buffer.from(value);

describe('ReplyInbox (request/reply on one subscription per connection)', () => {
  let nats: LocalNatsServer;
  let nc: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
  });

  afterAll(async () => {
    await nc.close();
    await nats.stop();
  });

  it('gives each request its own reply when replies come back in another order, with the headers sent', async () => {
    const held: Msg[] = [];
    const sub = nc.subscribe('echo', {
      callback: (_error, msg) => {
        held.push(msg);
        // Answers the three in reverse order once all have come.
        if (held.length === 3) for (const each of held.reverse()) each.respond(bytes(`${text(each.data)}:${each.headers?.get('x-request-id')}`));
      },
    });
    const inbox = ReplyInbox.of(nc);
    const replies = ['a', 'b', 'c'].map((value) => {
      const sent = headers();
      sent.set('x-request-id', `r-${value}`);
      return inbox.request('echo', bytes(value), { timeout: 2_000, headers: sent });
    });
    expect((await Promise.all(replies)).map(text)).toEqual(['a:r-a', 'b:r-b', 'c:r-c']);
    expect(ReplyInbox.of(nc)).toBe(inbox);
    sub.unsubscribe();
  });

  it('fails at once when nobody serves the subject (the server says 503), not at the timeout', async () => {
    const started = performance.now();
    await expect(ReplyInbox.of(nc).request('nobody.here', bytes('x'), { timeout: 5_000 })).rejects.toThrow('503 no responders');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('times out a request nobody answers, and ignores its reply when it comes later', async () => {
    let late: Msg | undefined;
    const sub = nc.subscribe('slow', { callback: (_error, msg) => (late = msg) });
    await expect(ReplyInbox.of(nc).request('slow', bytes('x'), { timeout: 200 })).rejects.toThrow('TIMEOUT');
    late!.respond(bytes('too late'));
    await nc.flush();
    // The inbox still answers the next request.
    const echo = nc.subscribe('quick', { callback: (_error, msg) => msg.respond(msg.data) });
    expect(text(await ReplyInbox.of(nc).request('quick', bytes('next'), { timeout: 2_000 }))).toBe('next');
    sub.unsubscribe();
    echo.unsubscribe();
  });

  it('fails what is waiting when its connection closes, and refuses what comes after', async () => {
    const own = await connect({ servers: nats.url });
    const sub = nc.subscribe('never', { callback: () => undefined });
    await nc.flush();
    const waiting = ReplyInbox.of(own).request('never', bytes('x'), { timeout: 10_000 });
    await own.flush();
    await own.close();
    await expect(waiting).rejects.toThrow('the connection closed');
    expect(() => ReplyInbox.of(own)).toThrow('CONNECTION_CLOSED');
    sub.unsubscribe();
  });
});
