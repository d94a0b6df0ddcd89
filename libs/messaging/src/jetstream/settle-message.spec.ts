import type { Logger } from '@nestjs/common';
import type { JsMsg } from 'nats';
import type { ConsumerSpec } from './consumer-spec';
import { settleMessage, settleUndecodable, type SettleRequest } from './settle-message';

const spec = { stream: 'JOBS', durable: 'worker', maxDeliver: 3 } as unknown as ConsumerSpec;

function request(deadLetter: SettleRequest['deadLetter'] = async () => undefined) {
  const msg = { subject: 'jobs.run', seq: 42, ack: jest.fn(), nak: jest.fn(), term: jest.fn() };
  const logger = { warn: jest.fn(), error: jest.fn() };
  return { msg, logger, request: { msg: msg as unknown as JsMsg, spec, attempt: 3, payload: { job_id: 'j' }, failure: new Error('boom'), deadLetter, logger: logger as unknown as Logger } };
}

describe('settleMessage', () => {
  it('acks, naks after the delay, or terms, as decided', async () => {
    const acked = request();
    await settleMessage({ kind: 'ack' }, acked.request);
    expect(acked.msg.ack).toHaveBeenCalled();
    const retried = request();
    await settleMessage({ kind: 'nak', delayMs: 500 }, retried.request);
    expect(retried.msg.nak).toHaveBeenCalledWith(500);
    const ended = request();
    await settleMessage({ kind: 'term', reason: 'bad input' }, ended.request);
    expect(ended.msg.term).toHaveBeenCalledWith();
  });

  it('hands a last failed attempt to the dead letters, then terms it', async () => {
    const deadLetter = jest.fn(async () => undefined);
    const { msg, request: settle } = request(deadLetter);
    await settleMessage({ kind: 'dead-letter', reason: 'boom' }, settle);
    expect(deadLetter).toHaveBeenCalledWith({ stream: 'JOBS', durable: 'worker', subject: 'jobs.run', streamSeq: 42, payload: { job_id: 'j' }, deliveries: 3, reason: 'last-attempt', error: 'boom' });
    expect(msg.term).toHaveBeenCalled();
  });

  it('leaves the message unsettled when its dead letter cannot be kept, for the advisory to retry', async () => {
    const { msg, logger, request: settle } = request(async () => {
      throw new Error('stream down');
    });
    await settleMessage({ kind: 'dead-letter', reason: 'boom' }, settle);
    expect([msg.ack, msg.nak, msg.term].every((call) => call.mock.calls.length === 0)).toBe(true);
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('stream down'));
  });
});

describe('settleUndecodable', () => {
  const undecodable = () => ({ subject: 'jobs.run', seq: 7, data: Uint8Array.from([0x7b, 0xff]), info: { deliveryCount: 2 }, term: jest.fn() });

  it('keeps the message with its bytes as text, then terms it', async () => {
    const msg = undecodable();
    const keep = jest.fn(async () => undefined);
    const logger = { warn: jest.fn(), error: jest.fn() };
    await settleUndecodable({ msg: msg as unknown as JsMsg, spec, failure: new SyntaxError('not JSON'), keep, logger: logger as unknown as Logger });
    expect(keep).toHaveBeenCalledWith({ stream: 'JOBS', durable: 'worker', subject: 'jobs.run', streamSeq: 7, payload: '{\ufffd', deliveries: 2, reason: 'undecodable', error: 'SyntaxError: not JSON' });
    expect(msg.term).toHaveBeenCalled();
  });

  it('keeps only the first 64 KiB of a large one, and says so', async () => {
    const msg = { ...undecodable(), data: new Uint8Array(1_000_000).fill(0xff) };
    const keep = jest.fn(async () => undefined);
    await settleUndecodable({ msg: msg as unknown as JsMsg, spec, failure: new SyntaxError('not JSON'), keep, logger: { warn: jest.fn(), error: jest.fn() } as unknown as Logger });
    const [kept] = keep.mock.calls[0] as unknown as [{ payload: string; error: string }];
    expect(kept.payload).toHaveLength(65_536);
    expect(kept.error).toBe('SyntaxError: not JSON (its first 65536 of 1000000 bytes kept)');
    expect(msg.term).toHaveBeenCalled();
  });

  it('leaves it unsettled when it cannot be kept', async () => {
    const msg = undecodable();
    const logger = { warn: jest.fn(), error: jest.fn() };
    await settleUndecodable({ msg: msg as unknown as JsMsg, spec, failure: new SyntaxError('not JSON'), keep: async () => Promise.reject(new Error('stream down')), logger: logger as unknown as Logger });
    expect(msg.term).not.toHaveBeenCalled();
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('stream down'));
  });
});
