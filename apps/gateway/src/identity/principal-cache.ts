import { LRUCache } from 'lru-cache';
import type { Principal } from './principal';

// Keys of every account a busy gateway serves; an entry is a few hundred bytes.
const MAX_ENTRIES = 10_000;

// Resolved API keys, by key hash (decision 0036). Used only while the gateway hears every identity
// change (IdentityChangeListener): a change drops the account's keys at its commit, and while the
// listener is down nothing is cached, so a revoked key or a suspended account is never served from
// here. The time-to-live only bounds memory kept for keys no longer used.
export class PrincipalCache {
  private readonly principals: LRUCache<string, Principal>;
  private live = false;
  // Bumped by every change: a lookup that started before one must not cache what it read.
  private generation = 0;

  constructor(ttlMs: number) {
    this.principals = new LRUCache<string, Principal>({ max: MAX_ENTRIES, ttl: ttlMs });
  }

  get(keyHash: string): Principal | undefined {
    return this.live ? this.principals.get(keyHash) : undefined;
  }

  // The token to pass to set(): taken before reading the database.
  begin(): number {
    return this.generation;
  }

  set(keyHash: string, principal: Principal, token: number): void {
    if (this.live && token === this.generation) this.principals.set(keyHash, principal);
  }

  forgetAccount(accountId: string): void {
    this.generation++;
    for (const [hash, principal] of this.principals.entries()) if (principal.accountId === accountId) this.principals.delete(hash);
  }

  // On when the listener starts listening, off when it loses its connection: changes made while it was
  // deaf are unknown, so everything cached before goes.
  setLive(live: boolean): void {
    this.generation++;
    this.principals.clear();
    this.live = live;
  }
}
