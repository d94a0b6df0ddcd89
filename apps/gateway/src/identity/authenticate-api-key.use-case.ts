import type { AccountsRepository } from './accounts.repository';
import { hashApiKey, isWellFormedApiKey } from './api-key';
import type { Principal } from './principal';

// Resolves an API key to its caller; null for anything that is not a live key of an active account
// (unknown, revoked, or the account suspended). Read from the database on every request, so a
// revocation holds on every gateway instance at once.
export class AuthenticateApiKeyUseCase {
  constructor(private readonly accounts: AccountsRepository) {}

  async execute(apiKey: string): Promise<Principal | null> {
    // Malformed keys never reach the database.
    if (!isWellFormedApiKey(apiKey)) return null;
    return this.accounts.findPrincipalByKeyHash(hashApiKey(apiKey));
  }
}
