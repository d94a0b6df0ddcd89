import type { JobType, LedgerEntryKind } from '@vj/contracts';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { AccountEntity } from '../database/account.entity';
import { LedgerEntryEntity } from '../database/ledger-entry.entity';

export interface EntryDraft {
  kind: LedgerEntryKind;
  credits: number;
  idempotency_key: string;
  job_id?: string;
  job_type?: JobType;
  billed_seconds?: number;
  price_version?: number;
}

// How each kind moves the account's two totals.
const EFFECT: Record<LedgerEntryKind, { balance: number; held: number }> = {
  grant: { balance: 1, held: 0 },
  charge: { balance: -1, held: 0 },
  hold: { balance: 0, held: 1 },
  release: { balance: 0, held: -1 },
};

// Locks the account's row for the rest of the transaction, creating it (at zero) on first use: every
// transaction that writes the account's ledger goes through here, so they run one after another.
export async function lockAccount(manager: EntityManager, accountId: string, now: Date): Promise<AccountEntity> {
  await manager.createQueryBuilder().insert().into(AccountEntity).values({ account_id: accountId, balance: 0, held: 0, updated_at: now }).orIgnore().execute();
  return manager.findOneOrFail(AccountEntity, { where: { account_id: accountId }, lock: { mode: 'pessimistic_write' } });
}

export function available(account: AccountEntity): number {
  return account.balance - account.held;
}

// Appends one entry to a locked account and moves its totals to match, in the caller's transaction.
// Zero-credit drafts write nothing. The table's checks refuse a negative held or available balance.
export async function appendEntry(manager: EntityManager, account: AccountEntity, draft: EntryDraft, now: Date): Promise<LedgerEntryEntity | null> {
  if (draft.credits === 0) return null;
  const effect = EFFECT[draft.kind];
  account.balance += effect.balance * draft.credits;
  account.held += effect.held * draft.credits;
  account.updated_at = now;
  await manager.update(AccountEntity, { account_id: account.account_id }, { balance: account.balance, held: account.held, updated_at: now });
  const entry = manager.create(LedgerEntryEntity, {
    entry_id: randomUUID(),
    account_id: account.account_id,
    kind: draft.kind,
    credits: draft.credits,
    idempotency_key: draft.idempotency_key,
    job_id: draft.job_id ?? null,
    job_type: draft.job_type ?? null,
    balance_after: account.balance,
    held_after: account.held,
    billed_seconds: draft.billed_seconds ?? null,
    price_version: draft.price_version ?? null,
    created_at: now,
  });
  await manager.insert(LedgerEntryEntity, entry);
  return entry;
}
