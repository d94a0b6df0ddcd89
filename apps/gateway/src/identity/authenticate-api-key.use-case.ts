import type { AccountsRepository } from './accounts.repository';
import { hashApiKey, isWellFormedApiKey } from './api-key';
import type { Principal } from './principal';
import { PrincipalCache } from './principal-cache';

// Resolves an API key to its caller; null for anything that is not a live key of an active account
// (unknown, revoked, or the account suspended). A live key is served from the cache, which every change
// to the key or its account clears at commit on every gateway instance (PrincipalCache); an unknown key
// is read from the database each time, so a key is usable from the moment it is created.
export class AuthenticateApiKeyUseCase {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly cache: PrincipalCache = new PrincipalCache(0),
  ) {}

  async execute(apiKey: string): Promise<Principal | null> {
    // Malformed keys never reach the database.
    if (!isWellFormedApiKey(apiKey)) return null;
    const hash = hashApiKey(apiKey);
    const cached = this.cache.get(hash);
    if (cached) return cached;
    const token = this.cache.begin();
    const principal = await this.accounts.findPrincipalByKeyHash(hash);
    if (principal) this.cache.set(hash, principal, token);
    return principal;
  }
}
