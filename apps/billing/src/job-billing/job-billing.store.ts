import type { JobType } from '@vj/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { AccountEntity } from '../database/account.entity';
import { JobBillingEntity } from '../database/job-billing.entity';
import { appendRowsParams, appendRowsSql, available, ledgerRows, lockAccount } from '../ledger/account-ledger';
import { preparedQuery, wholeRowUpdateSql } from '@vj/database';
import { outboxInsertSql, outboxRows } from '@vj/outbox';
import { BILLING_SCHEMA } from '../database/billing-schema';
import { billingEvent } from './billing-event-drafts';
import type { BillingDecision } from './billing-state-machine';
import type { JobBilling } from './job-billing';

export interface JobRef {
  job_id: string;
  account_id: string;
  job_type: JobType;
}

export interface LockedJob {
  row: JobBilling;
  // The account's available credits (balance - held) under its lock.
  available: number;
  // Appends the decision's ledger entries (moving the account's totals), saves the row's changes and
  // writes the billing event the change stands for into the outbox, all in the job's transaction.
  apply(decision: BillingDecision, now: Date): Promise<void>;
}

// All of billing's job I/O: one transaction per job event that locks the job's billing row (created on
// the job's first event, whatever its kind), then the account's, so a redelivered, duplicated or
// concurrent event of the same job waits and finds its work done.
export class JobBillingStore {
  // Made on first use, from the entity's columns: the same text every time, as a prepared statement needs.
  private lockSql: string | undefined;

  constructor(
    private readonly dataSource: DataSource,
    // Called after a commit that wrote an outbox row, so the event leaves without waiting for the poll.
    private readonly onOutboxWritten: () => void = () => undefined,
  ) {}

  async withLockedJob<T>(job: JobRef, now: Date, work: (locked: LockedJob) => Promise<T>): Promise<T> {
    let wroteOutbox = false;
    const result = await this.dataSource.transaction(async (manager) => {
      this.lockSql ??= lockJobAndAccountSql(this.dataSource.getMetadata(JobBillingEntity).columns.map((column) => column.databaseName));
      const { row, account } = await lockJobAndAccount(manager, this.lockSql, job, now);
      return work({
        row,
        available: available(account),
        apply: async (decision, at) => {
          wroteOutbox = await write(manager, row, account, decision, at);
        },
      });
    });
    if (wroteOutbox) this.onOutboxWritten();
    return result;
  }
}

// The job's billing row, created on the job's first event, and its account's row, both locked, in one
// statement (lockJobAndAccountSql); on the account's first event there is no account row yet: the job
// row, locked already, is read again and the account made by lockAccount.
async function lockJobAndAccount(manager: EntityManager, sql: string, job: JobRef, now: Date): Promise<{ row: JobBillingEntity; account: AccountEntity }> {
  // Prepared, as the decision's write: planning them cost more than running them (decision 0054).
  const [found] = await preparedQuery<JobBillingEntity & { account_balance: number; account_held: number; account_updated_at: Date }>(manager, sql, [job.job_id, job.account_id, job.job_type]);
  if (!found) {
    const row = await manager.findOneByOrFail(JobBillingEntity, { job_id: job.job_id });
    return { row, account: await lockAccount(manager, row.account_id, now) };
  }
  const { account_balance, account_held, account_updated_at, ...row } = found;
  const account = Object.assign(new AccountEntity(), { account_id: row.account_id, balance: account_balance, held: account_held, updated_at: account_updated_at });
  return { row: Object.assign(new JobBillingEntity(), row), account };
}

// `ON CONFLICT DO UPDATE` takes the lock of an existing job row (waiting for a concurrent event of the
// job to commit) and returns it, then the join locks the account's row. The job row's columns are
// named, not `j.*`: a prepared statement whose result gains a column (a migration during a rolling
// deploy) fails until its connection closes.
function lockJobAndAccountSql(jobColumns: readonly string[]): string {
  return `WITH j AS (
       INSERT INTO "${BILLING_SCHEMA}"."job_billing" AS j ("job_id", "account_id", "job_type", "state") VALUES ($1, $2, $3, 'open')
       ON CONFLICT ("job_id") DO UPDATE SET "job_id" = j."job_id"
       RETURNING *
     )
     SELECT ${jobColumns.map((column) => `j."${column}"`).join(', ')}, a."balance" AS "account_balance", a."held" AS "account_held", a."updated_at" AS "account_updated_at"
       FROM j JOIN "${BILLING_SCHEMA}"."account" AS a ON a."account_id" = j."account_id"
        FOR UPDATE OF a`;
}

// Returns whether an event went into the outbox: only with a change (a redelivered event finds its
// decision made, and its event already in the outbox or published). The ledger entries, the account's
// totals, the row's change and the event are one statement: the account stays locked for it and the
// commit only.
async function write(manager: EntityManager, row: JobBillingEntity, account: AccountEntity, decision: BillingDecision, now: Date): Promise<boolean> {
  const drafts = decision.entries.map((entry) => ({
    kind: entry.kind,
    credits: entry.credits,
    idempotency_key: entry.idempotencyKey,
    job_id: row.job_id,
    job_type: row.job_type,
    billed_seconds: entry.billed_seconds,
    price_version: entry.price_version,
  }));
  const entries = ledgerRows(account, drafts, now);
  const parts: string[] = [];
  const params: unknown[] = [];
  if (entries.length) {
    parts.push(appendRowsSql(1));
    params.push(...appendRowsParams(account, entries));
  }
  if (decision.change) {
    Object.assign(row, decision.change);
    parts.push(wholeRowUpdateSql(manager.connection.getMetadata(JobBillingEntity), 'job_id', params.length + 1));
    params.push(JSON.stringify(row));
  }
  const event = decision.change && decision.publish ? billingEvent(decision.publish, row) : null;
  if (event) {
    parts.push(`published AS (${outboxInsertSql(BILLING_SCHEMA, params.length + 1)})`);
    params.push(JSON.stringify(outboxRows([{ subject: event.subject, msgId: event.msgId, payload: event.payload }], now)));
  }
  if (parts.length) await preparedQuery(manager, `WITH ${parts.join(',\n')} SELECT 1`, params);
  return event !== null;
}
