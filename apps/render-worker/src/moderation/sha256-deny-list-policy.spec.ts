import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDenyList, Sha256DenyListPolicy } from './sha256-deny-list-policy';

const BAD = 'a'.repeat(64);
const GOOD = 'b'.repeat(64);
const input = (sha256: string) => ({ path: '/tmp/in', size: 1, sha256 });

describe('parseDenyList', () => {
  it('reads one hash a line, ignoring comments, blank lines and case', () => {
    const hashes = parseDenyList(`# known-bad media\n\n${BAD.toUpperCase()}  # reported 2024-01-02\n  ${'c'.repeat(64)}\r\n`);
    expect([...hashes]).toEqual([BAD, 'c'.repeat(64)]);
  });

  it('refuses a line that is not a SHA-256 digest, naming the line', () => {
    expect(() => parseDenyList(`${BAD}\nabc123\n`, 'deny.txt')).toThrow('deny.txt line 2');
  });
});

describe('Sha256DenyListPolicy', () => {
  it('denies an input whose hash is listed', async () => {
    const verdict = await new Sha256DenyListPolicy(new Set([BAD])).check(input(BAD));
    expect(verdict).toEqual({ allowed: false, reason: expect.any(String) });
  });

  it('allows an input whose hash is not listed', async () => {
    expect(await new Sha256DenyListPolicy(new Set([BAD])).check(input(GOOD))).toEqual({ allowed: true });
  });

  it('loads the list from MODERATION_DENY_SHA256_FILE', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vj-deny-'));
    try {
      writeFileSync(join(dir, 'deny.txt'), `${BAD}\n`);
      const policy = await Sha256DenyListPolicy.fromFile(join(dir, 'deny.txt'));
      expect((await policy.check(input(BAD))).allowed).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('allows everything when no file is configured', async () => {
    const policy = await Sha256DenyListPolicy.fromFile(undefined);
    expect(await policy.check(input(BAD))).toEqual({ allowed: true });
  });
});
