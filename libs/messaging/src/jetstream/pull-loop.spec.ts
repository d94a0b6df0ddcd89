import type { Consumer, ConsumerMessages, JsMsg } from 'nats';
import { PullLoop } from './pull-loop';

const logger = { warn: jest.fn(), error: jest.fn() };

function message(id: number): JsMsg & { nak: jest.Mock } {
  return { subject: `s.${id}`, nak: jest.fn() } as unknown as JsMsg & { nak: jest.Mock };
}

// A consumer whose fetches hand out the queued messages, as many as asked for.
function consumer(queue: JsMsg[], asked: number[]): Consumer {
  return {
    fetch: async ({ max_messages }: { max_messages: number }) => {
      asked.push(max_messages);
      const batch = queue.splice(0, max_messages);
      await new Promise((resolve) => setImmediate(resolve));
      return { close: async () => undefined, [Symbol.asyncIterator]: async function* () { yield* batch; } } as unknown as ConsumerMessages;
    },
  } as unknown as Consumer;
}

// Reads from `gone` (whose pull fails or ends), then from the consumer opened again, `made`.
async function expectReadAgain(gone: Consumer, made: Consumer, prefetch?: number): Promise<void> {
  const open = jest.fn(async () => made);
  const handled: string[] = [];
  const loop = new PullLoop(open, { durable: 'd', concurrency: 1, expiresMs: 10, prefetch }, async (msg) => void handled.push(msg.subject), logger);
  const done = loop.run(gone);
  for (let waited = 0; !handled.length && waited < 3_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(handled).toEqual(['s.1']);
  expect(open).toHaveBeenCalledTimes(1);
  await loop.stop();
  await done;
}

describe('PullLoop', () => {
  it('asks only for as many messages as there are free handler slots', async () => {
    const queue = [1, 2, 3, 4, 5].map(message);
    const asked: number[] = [];
    const releases: (() => void)[] = [];
    const handled: string[] = [];
    const reading = consumer(queue, asked);
    const loop = new PullLoop(async () => reading, { durable: 'd', concurrency: 2, expiresMs: 10 }, (msg) => {
      handled.push(msg.subject);
      return new Promise<void>((resolve) => releases.push(resolve));
    }, logger);
    const done = loop.run(reading);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handled).toEqual(['s.1', 's.2']);
    expect(loop.running.size).toBe(2);
    releases.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handled).toEqual(['s.1', 's.2', 's.3']);
    expect(asked.slice(0, 2)).toEqual([2, 1]);
    await loop.stop();
    releases.forEach((release) => release());
    await done;
  });

  it('gives back at once what a pull brings after it is stopped', async () => {
    const late = message(1);
    let release: (() => void) | undefined;
    const stopped = new Promise<void>((resolve) => (release = resolve));
    const slow = {
      fetch: async () => {
        await stopped;
        return { close: async () => undefined, [Symbol.asyncIterator]: async function* () { yield late; } } as unknown as ConsumerMessages;
      },
    } as unknown as Consumer;
    const handle = jest.fn(() => Promise.resolve());
    const loop = new PullLoop(async () => slow, { durable: 'd', concurrency: 1, expiresMs: 10 }, handle, logger);
    const done = loop.run(slow);
    await loop.stop();
    release?.();
    await done;
    expect(handle).not.toHaveBeenCalled();
    expect(late.nak).toHaveBeenCalledWith();
  });

  it('opens its consumer again after a pull fails, and reads from the one it gets', async () => {
    const gone = { fetch: async () => Promise.reject(new Error('consumer deleted')) } as unknown as Consumer;
    await expectReadAgain(gone, consumer([message(1)], []));
  });

  describe('with prefetch', () => {
    // A long-lived pull that hands out `queue`, then waits until stopped (or ends by itself: `ends`).
    function consuming(queue: JsMsg[], asked: number[], ends = false): Consumer {
      return {
        consume: async ({ max_messages }: { max_messages: number }) => {
          asked.push(max_messages);
          let stopped: () => void = () => undefined;
          const stop = new Promise<void>((resolve) => (stopped = resolve));
          return {
            stop: () => stopped(),
            [Symbol.asyncIterator]: async function* () {
              yield* queue.splice(0);
              if (!ends) await stop;
            },
          } as unknown as ConsumerMessages;
        },
      } as unknown as Consumer;
    }

    it('asks once for many and settles them one at a time, in order, with a concurrency of 1', async () => {
      const asked: number[] = [];
      const reading = consuming([1, 2, 3].map(message), asked);
      const order: string[] = [];
      let inHand = 0;
      let most = 0;
      const loop = new PullLoop(async () => reading, { durable: 'd', concurrency: 1, expiresMs: 10, prefetch: 100 }, async (msg) => {
        inHand++;
        most = Math.max(most, inHand);
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push(msg.subject);
        inHand--;
      }, logger);
      const done = loop.run(reading);
      for (let waited = 0; order.length < 3 && waited < 2_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(order).toEqual(['s.1', 's.2', 's.3']);
      expect(most).toBe(1);
      expect(asked).toEqual([100]);
      await loop.stop();
      await done;
    });

    it('hands back what came but was not taken when stopped', async () => {
      const first = message(1);
      const second = message(2);
      let release: () => void = () => undefined;
      const reading = consuming([first, second], []);
      const handled: string[] = [];
      const loop = new PullLoop(async () => reading, { durable: 'd', concurrency: 1, expiresMs: 10, prefetch: 100 }, (msg) => {
        handled.push(msg.subject);
        return new Promise<void>((resolve) => (release = resolve));
      }, logger);
      const done = loop.run(reading);
      await new Promise((resolve) => setTimeout(resolve, 10));
      const stopping = loop.stop();
      release();
      await stopping;
      await done;
      expect(handled).toEqual(['s.1']);
      expect(first.nak).not.toHaveBeenCalled();
      expect(second.nak).toHaveBeenCalledWith();
    });

    it('opens its consumer again when the library ends the pull (the consumer was deleted)', async () => {
      const gone = consuming([], [], true);
      await expectReadAgain(gone, consuming([message(1)], []), 100);
      expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('the pull ended'));
    });

    it('closes only once the message in hand is settled', async () => {
      let release: () => void = () => undefined;
      const reading = consuming([message(1)], []);
      const settled: string[] = [];
      const loop = new PullLoop(async () => reading, { durable: 'd', concurrency: 1, expiresMs: 10, prefetch: 100 }, async (msg) => {
        await new Promise<void>((resolve) => (release = resolve));
        settled.push(msg.subject);
      }, logger);
      loop.start(reading);
      await new Promise((resolve) => setTimeout(resolve, 10));
      const closing = loop.close();
      release();
      await closing;
      expect(settled).toEqual(['s.1']);
    });
  });
});
