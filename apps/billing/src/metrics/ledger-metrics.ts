import { gauge, type SqlRunner } from '@vj/observability';
import { BILLING_SCHEMA } from '../database/billing-schema';

const balances = () => gauge({ name: 'billing_balance_credits', help: "sum of every account's balance, held credits included" });
const held = () => gauge({ name: 'billing_held_credits', help: 'sum of the credits held for running jobs' });
const accounts = () => gauge({ name: 'billing_accounts', help: 'accounts with a ledger' });

// Ledger totals for /metrics: one pass over the account table (one row per account, not per entry).
export function ledgerCollector(db: SqlRunner): () => Promise<void> {
  return async () => {
    const [row] = (await db.query(
      `SELECT coalesce(sum("balance"), 0)::float8 AS "balance", coalesce(sum("held"), 0)::float8 AS "held", count(*)::int AS "accounts" FROM "${BILLING_SCHEMA}"."account"`,
    )) as { balance: number; held: number; accounts: number }[];
    balances().set(row?.balance ?? 0);
    held().set(row?.held ?? 0);
    accounts().set(row?.accounts ?? 0);
  };
}
