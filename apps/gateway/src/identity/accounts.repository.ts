import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';

// All identity I/O: accounts and the hashes of their API keys.
export class AccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async createWithKey(name: string, key: { hash: string; prefix: string }): Promise<{ accountId: string }> {
    const accountId = randomUUID();
    await this.dataSource.transaction(async (manager) => {
      await manager.insert(AccountEntity, { id: accountId, name });
      await manager.insert(ApiKeyEntity, { id: randomUUID(), account_id: accountId, key_hash: key.hash, key_prefix: key.prefix });
    });
    return { accountId };
  }

  async exists(accountId: string): Promise<boolean> {
    return this.dataSource.getRepository(AccountEntity).exists({ where: { id: accountId } });
  }

  async findAccountIdByKeyHash(hash: string): Promise<string | null> {
    const key = await this.dataSource.getRepository(ApiKeyEntity).findOne({ where: { key_hash: hash }, select: { account_id: true } });
    return key?.account_id ?? null;
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
