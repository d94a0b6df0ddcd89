import { createHash } from 'node:crypto';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key';

describe('API keys', () => {
  it('generates vj_ plus 32 random bytes in base64url', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^vj_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key.slice(3), 'base64url')).toHaveLength(32);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('never generates the same key twice', () => {
    expect(new Set(Array.from({ length: 100 }, generateApiKey)).size).toBe(100);
  });

  it('stores the SHA-256 hex of the key', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('shows a short prefix that does not give the key away', () => {
    const key = generateApiKey();
    expect(apiKeyDisplayPrefix(key)).toBe(key.slice(0, 10));
  });

  it('rejects malformed keys', () => {
    expect(isWellFormedApiKey('vj_short')).toBe(false);
    expect(isWellFormedApiKey(`xx_${'a'.repeat(43)}`)).toBe(false);
    expect(isWellFormedApiKey(`vj_${'a'.repeat(42)}!`)).toBe(false);
  });
});
