import { readFile } from 'node:fs/promises';
import type { FetchedInput } from '../input/fetched-input';
import type { ModerationPolicy, ModerationVerdict } from './moderation-policy';

// MODERATION_DENY_SHA256_FILE: one hex SHA-256 per line; '#' starts a comment.
export function parseDenyList(text: string, source = 'deny-list'): Set<string> {
  const hashes = new Set<string>();
  text.split(/\r?\n/).forEach((line, index) => {
    const entry = line.replace(/#.*/, '').trim().toLowerCase();
    if (!entry) return;
    // A malformed line would silently deny nothing: refuse to boot instead.
    if (!/^[0-9a-f]{64}$/.test(entry)) throw new Error(`${source} line ${index + 1}: "${entry}" is not a SHA-256 hex digest`);
    hashes.add(entry);
  });
  return hashes;
}

export class Sha256DenyListPolicy implements ModerationPolicy {
  constructor(private readonly denied: ReadonlySet<string>) {}

  static async fromFile(path: string | undefined): Promise<Sha256DenyListPolicy> {
    return new Sha256DenyListPolicy(path ? parseDenyList(await readFile(path, 'utf8'), path) : new Set());
  }

  async check(input: FetchedInput): Promise<ModerationVerdict> {
    return this.denied.has(input.sha256.toLowerCase())
      ? { allowed: false, reason: 'the input matches a known prohibited file' }
      : { allowed: true };
  }
}
