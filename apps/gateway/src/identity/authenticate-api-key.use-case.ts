import type { AccountsRepository } from './accounts.repository';
import { hashApiKey, isWellFormedApiKey } from './api-key';

// Resolves an API key to its account; null for anything that is not a live key.
export class AuthenticateApiKeyUseCase {
  constructor(private readonly accounts: AccountsRepository) {}

  async execute(apiKey: string): Promise<string | null> {
    // Malformed keys never reach the database.
    if (!isWellFormedApiKey(apiKey)) return null;
    return this.accounts.findAccountIdByKeyHash(hashApiKey(apiKey));
  }
}
