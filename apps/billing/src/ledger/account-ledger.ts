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

// A ledger row as appended: the draft with its account's totals after it.
export interface LedgerRow {
  entry_id: string;
  account_id: string;
  kind: LedgerEntryKind;
  credits: number;
  idempotency_key: string;
  job_id: string | null;
  job_type: JobType | null;
  balance_after: number;
  held_after: number;
  billed_seconds: number | null;
  price_version: number | null;
  created_at: Date;
}

// Moves a locked account's totals by each draft in turn (zero-credit drafts write nothing) and returns
// the rows to append, each with the totals after it. The caller writes the rows and the account's new
// totals in its transaction.
export function ledgerRows(account: AccountEntity, drafts: EntryDraft[], now: Date): LedgerRow[] {
  return drafts
    .filter((draft) => draft.credits !== 0)
    .map((draft) => {
      const effect = EFFECT[draft.kind];
      account.balance += effect.balance * draft.credits;
      account.held += effect.held * draft.credits;
      account.updated_at = now;
      return {
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
      };
    });
}

// The CTEs that append ledger rows to a locked account and set its totals, as one statement's first
// part: `$${first}` is the account's id, then its balance, held and updated_at, then the rows (JSON), in
// their order (their seq). The tables' checks refuse a negative held or available balance.
export function appendRowsSql(first: number): string {
  const [id, balance, held, at, rows] = [first, first + 1, first + 2, first + 3, first + 4].map((n) => `$${n}`);
  return `moved AS (
       UPDATE "${BILLING_SCHEMA}"."account" SET "balance" = ${balance}, "held" = ${held}, "updated_at" = ${at} WHERE "account_id" = ${id}
     ),
     appended AS (
       INSERT INTO "${BILLING_SCHEMA}"."ledger_entry"
         ("entry_id", "account_id", "kind", "credits", "idempotency_key", "job_id", "job_type", "balance_after", "held_after", "billed_seconds", "price_version", "created_at")
       SELECT "entry_id", "account_id", "kind", "credits", "idempotency_key", "job_id", "job_type", "balance_after", "held_after", "billed_seconds", "price_version", "created_at"
         FROM jsonb_populate_recordset(NULL::"${BILLING_SCHEMA}"."ledger_entry", ${rows}) WITH ORDINALITY ORDER BY "ordinality"
     )`;
}

export function appendRowsParams(account: AccountEntity, rows: LedgerRow[]): unknown[] {
  return [account.account_id, account.balance, account.held, account.updated_at, JSON.stringify(rows)];
}

// Appends one entry to a locked account and moves its totals to match, in the caller's transaction:
// one statement, as the account's other writers wait on its lock meanwhile.
export async function appendEntry(manager: EntityManager, account: AccountEntity, draft: EntryDraft, now: Date): Promise<void> {
  const rows = ledgerRows(account, [draft], now);
  if (!rows.length) return;
  await manager.query(`WITH ${appendRowsSql(1)} SELECT 1`, appendRowsParams(account, rows));
}
