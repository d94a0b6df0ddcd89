import type { Principal } from './principal';
import { PrincipalCache } from './principal-cache';

const limits = { reads_per_second: null, read_burst: null, writes_per_second: null, write_burst: null, max_processing_jobs: null };
const alice: Principal = { accountId: 'acc-alice', keyId: 'key-a', limits };
const bob: Principal = { accountId: 'acc-bob', keyId: 'key-b', limits };

describe('PrincipalCache', () => {
  it('caches nothing until its listener is live, and forgets everything when the listener is lost', () => {
    const cache = new PrincipalCache(60_000);
    cache.set('hash-a', alice, cache.begin());
    expect(cache.get('hash-a')).toBeUndefined();
    cache.setLive(true);
    cache.set('hash-a', alice, cache.begin());
    expect(cache.get('hash-a')).toEqual(alice);
    cache.setLive(false);
    expect(cache.get('hash-a')).toBeUndefined();
    cache.setLive(true);
    expect(cache.get('hash-a')).toBeUndefined();
  });

  it("drops only the changed account's keys", () => {
    const cache = new PrincipalCache(60_000);
    cache.setLive(true);
    cache.set('hash-a', alice, cache.begin());
    cache.set('hash-b', bob, cache.begin());
    cache.forgetAccount('acc-alice');
    expect(cache.get('hash-a')).toBeUndefined();
    expect(cache.get('hash-b')).toEqual(bob);
  });

  it('does not cache a lookup that started before a change: it may have read the key before its revocation', () => {
    const cache = new PrincipalCache(60_000);
    cache.setLive(true);
    const token = cache.begin();
    cache.forgetAccount('acc-alice');
    cache.set('hash-a', alice, token);
    expect(cache.get('hash-a')).toBeUndefined();
  });
});
