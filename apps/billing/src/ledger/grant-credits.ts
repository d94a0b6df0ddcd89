import { INT32_MAX, type GrantCreditsReplyV1, type GrantCreditsRequestV1 } from '@vj/contracts';
import { RpcError } from '@vj/messaging';
import type { DataSource } from 'typeorm';
import { LedgerEntryEntity } from '../database/ledger-entry.entity';
import { appendEntry, lockAccount } from './account-ledger';
import { isUuid } from '@vj/database';

// Adds credits to an account. The same idempotency key grants once: a retried grant answers the
// current balance without adding anything.
export async function grantCredits(dataSource: DataSource, request: GrantCreditsRequestV1, now = new Date()): Promise<GrantCreditsReplyV1> {
  if (!isUuid(request.account_id)) throw new RpcError('invalid_request', 'account_id must be a UUID');
  if (!Number.isInteger(request.amount) || request.amount < 1 || request.amount > INT32_MAX) {
    throw new RpcError('invalid_request', `amount must be an integer from 1 to ${INT32_MAX}`);
  }
  if (typeof request.idempotency_key !== 'string' || !request.idempotency_key || request.idempotency_key.length > 200) {
    throw new RpcError('invalid_request', 'idempotency_key must be 1 to 200 characters');
  }
  const key = `grant:${request.account_id}:${request.idempotency_key}`;
  return dataSource.transaction(async (manager) => {
    const account = await lockAccount(manager, request.account_id, now);
    const earlier = await manager.findOneBy(LedgerEntryEntity, { idempotency_key: key });
    if (earlier) return { account_id: account.account_id, balance: account.balance };
    if (account.balance + request.amount > INT32_MAX) throw new RpcError('invalid_request', `the balance cannot exceed ${INT32_MAX} credits`);
    await appendEntry(manager, account, { kind: 'grant', credits: request.amount, idempotency_key: key }, now);
    return { account_id: account.account_id, balance: account.balance };
  });
}
