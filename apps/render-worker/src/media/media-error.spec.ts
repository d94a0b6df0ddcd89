import { AbortError, isAbortError, MediaError, throwIfAborted } from './media-error';

describe('isAbortError', () => {
  it('recognises our AbortError, DOMException aborts and Node abort reasons', () => {
    expect(isAbortError(new AbortError())).toBe(true);
    expect(isAbortError(new DOMException('stopped', 'AbortError'))).toBe(true);
    expect(isAbortError(AbortSignal.abort().reason)).toBe(true);
  });

  it('does not take job failures or plain errors for cancellation', () => {
    expect(isAbortError(new MediaError('timeout', 'too slow'))).toBe(false);
    expect(isAbortError(new Error('boom'))).toBe(false);
    expect(isAbortError('AbortError')).toBe(false);
    expect(isAbortError(null)).toBe(false);
  });
});

describe('throwIfAborted', () => {
  it('throws an AbortError once the signal has fired, and nothing before', () => {
    const controller = new AbortController();
    expect(() => throwIfAborted(controller.signal)).not.toThrow();
    expect(() => throwIfAborted(undefined)).not.toThrow();
    controller.abort();
    expect(() => throwIfAborted(controller.signal)).toThrow(AbortError);
  });
});

describe('MediaError', () => {
  it('carries the job error code and details', () => {
    const error = new MediaError('invalid_file', 'no audio', [{ type: 'no_audio_stream', message: 'none' }]);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'MediaError', code: 'invalid_file', message: 'no audio' });
    expect(error.details).toEqual([{ type: 'no_audio_stream', message: 'none' }]);
    expect(new MediaError('timeout', 'slow').details).toBeNull();
  });
});
