import type { AccountsRepository } from './accounts.repository';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from './api-key';

export interface CreatedAccount {
  account_id: string;
  // Shown once; only its hash is stored.
  api_key: string;
}

export const ACCOUNT_NAME_MAX_LENGTH = 200;

export class InvalidAccountNameError extends Error {}

// One use case behind every door that creates an account (CLI today; an admin API later).
export class CreateAccountUseCase {
  constructor(private readonly accounts: AccountsRepository) {}

  async execute(input: { name: string }): Promise<CreatedAccount> {
    const name = input.name.trim();
    if (!name || name.length > ACCOUNT_NAME_MAX_LENGTH) {
      throw new InvalidAccountNameError(`account name must be 1 to ${ACCOUNT_NAME_MAX_LENGTH} characters`);
    }
    const apiKey = generateApiKey();
    const { accountId } = await this.accounts.createWithKey(name, { hash: hashApiKey(apiKey), prefix: apiKeyDisplayPrefix(apiKey) });
    return { account_id: accountId, api_key: apiKey };
  }
}
