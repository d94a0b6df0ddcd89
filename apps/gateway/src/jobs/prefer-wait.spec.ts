import { MAX_WAIT_SECONDS, preferredWaitSeconds } from './prefer-wait';

describe('preferredWaitSeconds', () => {
  it.each([
    ['wait=30', 30],
    ['WAIT = 5', 5],
    ['wait="12"', 12],
    ['respond-async, wait=10', 10],
    ['handling=lenient; x=1, wait=3', 3],
    [['return=minimal', 'wait=7'], 7],
    ['wait=600', MAX_WAIT_SECONDS],
  ])('%j asks for %d s', (header, seconds) => {
    expect(preferredWaitSeconds(header)).toBe(seconds);
  });

  it.each([undefined, '', 'wait', 'wait=', 'wait=0', 'wait=-1', 'wait=1.5', 'wait=abc', 'waiting=5', 'respond-async', 'wait=9999999999'])(
    '%j asks for no wait',
    (header) => {
      expect(preferredWaitSeconds(header)).toBeNull();
    },
  );
});
