import type { JobCancelledEventV1, JobCompletedEventV1, JobCreatedEventV1, JobFailedEventV1 } from '@vj/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { JobBillingEntity } from '../database/job-billing.entity';
import { appendEntry, available, jobEntryKey, lockAccount } from '../ledger/account-ledger';
import { priceOf } from '../pricing/price';
import type { PriceCatalog } from '../pricing/price-catalog';
import { quote } from '../pricing/quote';
import { billingEvent, type BillingEventDraft } from './billing-event-drafts';

type JobEvent = JobCreatedEventV1 | JobCompletedEventV1 | JobFailedEventV1 | JobCancelledEventV1;

// What billing does with each job event (decisions 0015). Each call is one transaction that locks the
// job's billing row, then the account's: a redelivered, duplicated or concurrent event of the same job
// waits, finds its work done and returns the same event to publish again. Returns the billing events
// to publish once committed.
export class JobBillingService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly prices: PriceCatalog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // Holds the quote if the available balance covers it, else records the rejection.
  onCreated(event: JobCreatedEventV1): Promise<BillingEventDraft[]> {
    return this.dataSource.transaction(async (manager) => {
      const row = await lockJob(manager, event);
      if (row.credits_held !== null) return [billingEvent('hold_placed', row)];
      if (row.state === 'rejected') return [billingEvent('hold_rejected', row)];
      if (row.state !== 'open') return [];
      // Jobs created before billing carry no quote: quote the most they can cost.
      const estimate = event.estimate ?? quote(this.prices.current(), event.job_type, event.options, null);
      const now = this.now();
      const account = await lockAccount(manager, event.account_id, now);
      Object.assign(row, { options: event.options, price_version: estimate.price_version, credits_estimated: estimate.credits_estimated, decided_at: now });
      if (available(account) < estimate.credits_estimated) {
        Object.assign(row, { state: 'rejected', credits_available: available(account) });
        await manager.save(row);
        return [billingEvent('hold_rejected', row)];
      }
      await appendEntry(manager, account, { kind: 'hold', credits: estimate.credits_estimated, idempotency_key: jobEntryKey(row.job_id, 'hold'), job_id: row.job_id, job_type: row.job_type }, now);
      Object.assign(row, { state: 'held', credits_held: estimate.credits_estimated });
      await manager.save(row);
      return [billingEvent('hold_placed', row)];
    });
  }

  // Charges the price of the processed duration, at most what the hold and the available balance
  // cover together (README "Charges"), and releases the hold.
  onCompleted(event: JobCompletedEventV1): Promise<BillingEventDraft[]> {
    return this.dataSource.transaction(async (manager) => {
      const row = await lockJob(manager, event);
      if (row.state === 'charged') return [billingEvent('charge_captured', row)];
      if (row.state === 'released' || row.state === 'closed') return [];
      const now = this.now();
      // A job billing never held for (it ran before billing existed) is priced with the current list and,
      // lacking its options, without option multipliers.
      const list = row.price_version !== null && row.state === 'held' ? await this.prices.version(row.price_version) : this.prices.current();
      const priced = priceOf(list.prices[row.job_type], row.options ?? {}, event.media_duration_seconds);
      const account = await lockAccount(manager, row.account_id, now);
      const held = row.state === 'held' ? (row.credits_held ?? 0) : 0;
      await appendEntry(manager, account, { kind: 'release', credits: held, idempotency_key: jobEntryKey(row.job_id, 'release'), job_id: row.job_id, job_type: row.job_type }, now);
      const charged = Math.min(priced.credits, available(account));
      await appendEntry(
        manager,
        account,
        {
          kind: 'charge',
          credits: charged,
          idempotency_key: jobEntryKey(row.job_id, 'charge'),
          job_id: row.job_id,
          job_type: row.job_type,
          billed_seconds: priced.billed_seconds,
          price_version: list.version,
        },
        now,
      );
      Object.assign(row, {
        state: 'charged',
        credits_held: held || null,
        price_version: list.version,
        credits_charged: charged,
        credits_priced: priced.credits,
        billed_seconds: priced.billed_seconds,
        settled_at: now,
      });
      await manager.save(row);
      return [billingEvent('charge_captured', row)];
    });
  }

  // Failed or cancelled: the hold goes back to the available balance and nothing is charged.
  onClosed(event: JobFailedEventV1 | JobCancelledEventV1): Promise<BillingEventDraft[]> {
    return this.dataSource.transaction(async (manager) => {
      const row = await lockJob(manager, event);
      if (row.state === 'released') return [billingEvent('hold_released', row)];
      if (row.state === 'open') {
        // Nothing held yet; a created event arriving later must not hold anything either.
        Object.assign(row, { state: 'closed', settled_at: this.now() });
        await manager.save(row);
        return [];
      }
      if (row.state !== 'held') return [];
      const now = this.now();
      const account = await lockAccount(manager, row.account_id, now);
      await appendEntry(manager, account, { kind: 'release', credits: row.credits_held ?? 0, idempotency_key: jobEntryKey(row.job_id, 'release'), job_id: row.job_id, job_type: row.job_type }, now);
      Object.assign(row, { state: 'released', settled_at: now });
      await manager.save(row);
      return [billingEvent('hold_released', row)];
    });
  }
}

// The job's billing row, created on its first event whatever kind that is, and locked until commit.
async function lockJob(manager: EntityManager, event: JobEvent): Promise<JobBillingEntity> {
  await manager
    .createQueryBuilder()
    .insert()
    .into(JobBillingEntity)
    .values({ job_id: event.job_id, account_id: event.account_id, job_type: event.job_type, state: 'open' })
    .orIgnore()
    .execute();
  return manager.findOneOrFail(JobBillingEntity, { where: { job_id: event.job_id }, lock: { mode: 'pessimistic_write' } });
}
