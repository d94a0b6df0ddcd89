import type { JsMsg } from 'nats';
import { keepAlive, MaxProcessingTimeExceeded } from './keep-alive';

describe('keepAlive', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends working() every third of the ack wait until the cap, then aborts with MaxProcessingTimeExceeded', () => {
    const working = jest.fn();
    const alive = keepAlive({ working } as unknown as JsMsg, 3_000, 10_000);
    jest.advanceTimersByTime(9_999);
    expect(working).toHaveBeenCalledTimes(9);
    expect(alive.signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect(alive.signal.reason).toBeInstanceOf(MaxProcessingTimeExceeded);
    expect(alive.signal.reason).toMatchObject({ name: 'AbortError', maxProcessingMs: 10_000, message: 'processing exceeded 10000 ms' });
    jest.advanceTimersByTime(10_000);
    expect(working).toHaveBeenCalledTimes(9);
  });

  it('neither keeps alive nor aborts once stopped', () => {
    const working = jest.fn();
    const alive = keepAlive({ working } as unknown as JsMsg, 3_000, 10_000);
    alive.stop();
    jest.advanceTimersByTime(20_000);
    expect(working).not.toHaveBeenCalled();
    expect(alive.signal.aborted).toBe(false);
  });
});
