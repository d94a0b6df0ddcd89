import type { AccountsRepository, ApiKeyListing } from './accounts.repository';
import { apiKeyDisplayPrefix, generateApiKey, hashApiKey } from './api-key';
import { UnknownAccountError, UnknownKeyError, checkedId } from './identity-errors';

export const KEY_NAME_MAX_LENGTH = 100;

export class InvalidKeyNameError extends Error {}

// Several keys per account, so one can be rotated (create the new one, move the clients, revoke the
// old) without downtime. A key is shown once, when created; a revoked key fails at once on every
// gateway instance, since each request reads the key from the database.
export class AccountKeysUseCase {
  constructor(private readonly accounts: AccountsRepository) {}

  async create(accountId: string, name: string | null): Promise<ApiKeyListing & { account_id: string; api_key: string }> {
    const id = await this.existingAccount(accountId);
    const label = name?.trim() || null;
    if (label && label.length > KEY_NAME_MAX_LENGTH) throw new InvalidKeyNameError(`key name must be at most ${KEY_NAME_MAX_LENGTH} characters`);
    const apiKey = generateApiKey();
    const key = await this.accounts.addKey(id, label, { hash: hashApiKey(apiKey), prefix: apiKeyDisplayPrefix(apiKey) });
    return { account_id: id, ...key, api_key: apiKey };
  }

  async list(accountId: string): Promise<{ account_id: string; keys: ApiKeyListing[] }> {
    const id = await this.existingAccount(accountId);
    return { account_id: id, keys: await this.accounts.listKeys(id) };
  }

  async revoke(keyId: string): Promise<ApiKeyListing & { account_id: string }> {
    const revoked = await this.accounts.revokeKey(checkedId(keyId, UnknownKeyError, 'key'), new Date());
    if (!revoked) throw new UnknownKeyError(`no key ${keyId}`);
    return revoked;
  }

  private async existingAccount(accountId: string): Promise<string> {
    const id = checkedId(accountId, UnknownAccountError, 'account');
    if (!(await this.accounts.exists(id))) throw new UnknownAccountError(`no account ${accountId}`);
    return id;
  }
}
