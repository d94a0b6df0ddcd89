import type { JobType, LedgerEntryKind } from '@vj/contracts';
import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { AccountEntity } from '../database/account.entity';
import { BILLING_SCHEMA } from '../database/billing-schema';

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
// transaction that writes the account's ledger goes through here, so they run one after another. The
// row nearly always exists: one statement then, which is all the wait for the lock.
export async function lockAccount(manager: EntityManager, accountId: string, now: Date): Promise<AccountEntity> {
  const locked = () => manager.findOne(AccountEntity, { where: { account_id: accountId }, lock: { mode: 'pessimistic_write' } });
  const existing = await locked();
  if (existing) return existing;
  await manager.createQueryBuilder().insert().into(AccountEntity).values({ account_id: accountId, balance: 0, held: 0, updated_at: now }).orIgnore().execute();
  const created = await locked();
  if (!created) throw new Error(`billing account ${accountId} could not be created`);
  return created;
}

export function available(account: AccountEntity): number {
  return account.balance - account.held;
}

// Appends one entry to a locked account and moves its totals to match, in the caller's transaction:
// one statement, as the account's other writers wait on its lock meanwhile. Zero-credit drafts write
// nothing. The tables' checks refuse a negative held or available balance.
export async function appendEntry(manager: EntityManager, account: AccountEntity, draft: EntryDraft, now: Date): Promise<void> {
  if (draft.credits === 0) return;
  const effect = EFFECT[draft.kind];
  account.balance += effect.balance * draft.credits;
  account.held += effect.held * draft.credits;
  account.updated_at = now;
  await manager.query(
    `WITH moved AS (
       UPDATE "${BILLING_SCHEMA}"."account" SET "balance" = $2, "held" = $3, "updated_at" = $4 WHERE "account_id" = $1 RETURNING "account_id"
     )
     INSERT INTO "${BILLING_SCHEMA}"."ledger_entry"
       ("entry_id", "account_id", "kind", "credits", "idempotency_key", "job_id", "job_type", "balance_after", "held_after", "billed_seconds", "price_version", "created_at")
     SELECT $5, "account_id", $6, $7, $8, $9, $10, $2, $3, $11, $12, $4 FROM moved`,
    [
      account.account_id,
      account.balance,
      account.held,
      now,
      randomUUID(),
      draft.kind,
      draft.credits,
      draft.idempotency_key,
      draft.job_id ?? null,
      draft.job_type ?? null,
      draft.billed_seconds ?? null,
      draft.price_version ?? null,
    ],
  );
}
