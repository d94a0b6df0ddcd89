import type { JobType } from '@vj/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import type { AccountEntity } from '../database/account.entity';
import { JobBillingEntity } from '../database/job-billing.entity';
import { appendEntry, available, lockAccount } from '../ledger/account-ledger';
import { insertOutbox } from '@vj/outbox';
import { BILLING_SCHEMA } from '../database/billing-schema';
import { billingEvent } from './billing-event-drafts';
import type { BillingDecision } from './billing-state-machine';

export interface JobRef {
  job_id: string;
  account_id: string;
  job_type: JobType;
}

export interface LockedJob {
  row: JobBillingEntity;
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
  constructor(
    private readonly dataSource: DataSource,
    // Called after a commit that wrote an outbox row, so the event leaves without waiting for the poll.
    private readonly onOutboxWritten: () => void = () => undefined,
  ) {}

  async withLockedJob<T>(job: JobRef, now: Date, work: (locked: LockedJob) => Promise<T>): Promise<T> {
    let wroteOutbox = false;
    const result = await this.dataSource.transaction(async (manager) => {
      const row = await lockJob(manager, job);
      const account = await lockAccount(manager, row.account_id, now);
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

async function lockJob(manager: EntityManager, job: JobRef): Promise<JobBillingEntity> {
  await manager.createQueryBuilder().insert().into(JobBillingEntity).values({ job_id: job.job_id, account_id: job.account_id, job_type: job.job_type, state: 'open' }).orIgnore().execute();
  return manager.findOneOrFail(JobBillingEntity, { where: { job_id: job.job_id }, lock: { mode: 'pessimistic_write' } });
}

// Returns whether an event went into the outbox: only with a change (a redelivered event finds its
// decision made, and its event already in the outbox or published).
async function write(manager: EntityManager, row: JobBillingEntity, account: AccountEntity, decision: BillingDecision, now: Date): Promise<boolean> {
  for (const entry of decision.entries) {
    await appendEntry(
      manager,
      account,
      {
        kind: entry.kind,
        credits: entry.credits,
        idempotency_key: entry.idempotencyKey,
        job_id: row.job_id,
        job_type: row.job_type,
        billed_seconds: entry.billed_seconds,
        price_version: entry.price_version,
      },
      now,
    );
  }
  if (!decision.change) return false;
  Object.assign(row, decision.change);
  // The row is locked and known: an update, not save()'s extra read.
  await manager.update(JobBillingEntity, { job_id: row.job_id }, decision.change);
  if (!decision.publish) return false;
  const event = billingEvent(decision.publish, row);
  await insertOutbox(manager, BILLING_SCHEMA, [{ subject: event.subject, msgId: event.msgId, payload: event.payload }], now);
  return true;
}
