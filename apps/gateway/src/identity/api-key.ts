import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'vj_';
// 32 random bytes in base64url: 43 characters.
const KEY_PATTERN = /^vj_[A-Za-z0-9_-]{43}$/;
const DISPLAY_PREFIX_LENGTH = 10;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function isWellFormedApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

// A plain SHA-256 is the right hash here: keys carry 256 random bits, so there is nothing to brute-force
// and a slow password hash (bcrypt, argon2) would only add latency to every request.
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function apiKeyDisplayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}
