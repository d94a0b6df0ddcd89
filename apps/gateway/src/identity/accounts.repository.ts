import { randomUUID } from 'node:crypto';
import { IsNull, type DataSource } from 'typeorm';
import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { LIMIT_NAMES, type AccountLimitOverrides, type Principal } from './principal';

export interface StoredKey {
  hash: string;
  prefix: string;
}

export interface ApiKeyListing {
  key_id: string;
  name: string | null;
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export interface AccountListing {
  account_id: string;
  name: string;
  created_at: string;
  suspended_at: string | null;
  limits: AccountLimitOverrides;
}

// All identity I/O: accounts, their limits and the hashes of their API keys.
export class AccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async createWithKey(name: string, key: StoredKey): Promise<{ accountId: string; keyId: string }> {
    const accountId = randomUUID();
    const keyId = randomUUID();
    await this.dataSource.transaction(async (manager) => {
      await manager.insert(AccountEntity, { id: accountId, name });
      await manager.insert(ApiKeyEntity, { id: keyId, account_id: accountId, key_hash: key.hash, key_prefix: key.prefix });
    });
    return { accountId, keyId };
  }

  async isActive(accountId: string): Promise<boolean> {
    return this.dataSource.getRepository(AccountEntity).exists({ where: { id: accountId, suspended_at: IsNull() } });
  }

  async exists(accountId: string): Promise<boolean> {
    return this.dataSource.getRepository(AccountEntity).exists({ where: { id: accountId } });
  }

  // One query per request: a live key of an account that is not suspended, with the account's limits.
  async findPrincipalByKeyHash(hash: string): Promise<Principal | null> {
    const rows: (AccountLimitOverrides & { key_id: string; account_id: string })[] = await this.dataSource.query(
      `SELECT k.id AS key_id, a.id AS account_id, ${LIMIT_NAMES.map((name) => `a.${name}`).join(', ')}
         FROM "identity"."api_keys" k JOIN "identity"."accounts" a ON a.id = k.account_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND a.suspended_at IS NULL`,
      [hash],
    );
    const row = rows[0];
    if (!row) return null;
    return { accountId: row.account_id, keyId: row.key_id, limits: limitsOf(row) };
  }

  async findAccount(accountId: string): Promise<AccountListing | null> {
    const account = await this.dataSource.getRepository(AccountEntity).findOneBy({ id: accountId });
    return account && accountListing(account);
  }

  async addKey(accountId: string, name: string | null, key: StoredKey): Promise<ApiKeyListing> {
    const entity = await this.dataSource.getRepository(ApiKeyEntity).save({ id: randomUUID(), account_id: accountId, key_hash: key.hash, key_prefix: key.prefix, name });
    return keyListing(entity);
  }

  async listKeys(accountId: string): Promise<ApiKeyListing[]> {
    const keys = await this.dataSource.getRepository(ApiKeyEntity).find({ where: { account_id: accountId }, order: { created_at: 'ASC', id: 'ASC' } });
    return keys.map(keyListing);
  }

  // Null when no such key; a key revoked before keeps its first revocation time.
  async revokeKey(keyId: string, now: Date): Promise<(ApiKeyListing & { account_id: string }) | null> {
    const keys = this.dataSource.getRepository(ApiKeyEntity);
    await keys.update({ id: keyId, revoked_at: IsNull() }, { revoked_at: now });
    const key = await keys.findOneBy({ id: keyId });
    return key && { ...keyListing(key), account_id: key.account_id };
  }

  // Sets or clears suspended_at; returns the account as it is afterwards, null when unknown.
  async setSuspended(accountId: string, suspended: boolean, now: Date): Promise<AccountListing | null> {
    const accounts = this.dataSource.getRepository(AccountEntity);
    if (suspended) await accounts.update({ id: accountId, suspended_at: IsNull() }, { suspended_at: now });
    else await accounts.update({ id: accountId }, { suspended_at: null });
    return this.findAccount(accountId);
  }

  // Only the limits named in `changes` change; a null puts one back to the deployment's default.
  async setLimits(accountId: string, changes: Partial<AccountLimitOverrides>): Promise<AccountListing | null> {
    if (Object.keys(changes).length) await this.dataSource.getRepository(AccountEntity).update({ id: accountId }, changes);
    return this.findAccount(accountId);
  }

  async ping(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}

// double precision and integer columns come back as numbers from pg; nulls stay null.
function limitsOf(row: AccountLimitOverrides): AccountLimitOverrides {
  return Object.fromEntries(LIMIT_NAMES.map((name) => [name, row[name] === null ? null : Number(row[name])])) as unknown as AccountLimitOverrides;
}

function keyListing(key: ApiKeyEntity): ApiKeyListing {
  return {
    key_id: key.id,
    name: key.name ?? null,
    key_prefix: key.key_prefix,
    created_at: key.created_at.toISOString(),
    revoked_at: key.revoked_at?.toISOString() ?? null,
  };
}

function accountListing(account: AccountEntity): AccountListing {
  return {
    account_id: account.id,
    name: account.name,
    created_at: account.created_at.toISOString(),
    suspended_at: account.suspended_at?.toISOString() ?? null,
    limits: limitsOf(account),
  };
}
