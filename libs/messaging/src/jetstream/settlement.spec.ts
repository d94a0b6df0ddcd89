import { HandBack } from './hand-back';
import { PermanentMessageError } from './permanent-message-error';
import { decideSettlement } from './settlement';

const attempt = (n: number) => ({ attempt: n, maxDeliver: 3, backoffMs: [1_000, 5_000] });

describe('decideSettlement', () => {
  it('acks when the handler resolved', () => {
    expect(decideSettlement(undefined, attempt(1))).toEqual({ kind: 'ack' });
  });

  it('terms a permanent error at once, even on the first attempt', () => {
    expect(decideSettlement(new PermanentMessageError('bad payload'), attempt(1))).toEqual({ kind: 'term', reason: 'bad payload' });
  });

  it('naks a transient error with the backoff of its attempt, repeating the last delay', () => {
    expect(decideSettlement(new Error('db down'), attempt(1))).toEqual({ kind: 'nak', delayMs: 1_000 });
    expect(decideSettlement(new Error('db down'), attempt(2))).toEqual({ kind: 'nak', delayMs: 5_000 });
    expect(decideSettlement(new Error('db down'), { attempt: 4, maxDeliver: 9, backoffMs: [1_000, 5_000] })).toEqual({ kind: 'nak', delayMs: 5_000 });
  });

  it('dead-letters a transient error on the last attempt', () => {
    expect(decideSettlement(new Error('db down'), attempt(3))).toEqual({ kind: 'dead-letter', reason: 'db down' });
  });

  it('hands a message back (a shutdown: at once; an outage: after its delay) without a dead letter, even on the last attempt', () => {
    expect(decideSettlement(new HandBack('shutting down'), attempt(1))).toEqual({ kind: 'nak', delayMs: 0 });
    expect(decideSettlement(new HandBack('jobs service unreachable', 5_000), attempt(3))).toEqual({ kind: 'nak', delayMs: 5_000 });
  });
});
