import { priceOf, quoteJob, type ExtendHoldReplyV1, type ExtendHoldRequestV1, type JobCancelledEventV1, type JobCompletedEventV1, type JobCreatedEventV1, type JobFailedEventV1 } from '@vj/contracts';
import { RpcError } from '@vj/messaging';
import type { PriceCatalog } from '../pricing/price-catalog';
import type { PriceList } from '../pricing/price-list';
import { decide, type BillingCommand, type BillingDecision } from './billing-state-machine';
import type { JobBillingStore, JobRef } from './job-billing.store';
import type { JobBilling } from './job-billing';

// What billing does with each job event and with a worker's extension of a hold: the command is
// built here (prices are looked up here), decided by the state machine, written by the store, which
// puts the billing event of each change in the outbox (decision 0029).
export class JobBillingService {
  constructor(
    private readonly store: JobBillingStore,
    private readonly prices: PriceCatalog,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // Holds the quote if the available balance covers it, else records the rejection. Jobs created
  // before billing carry no quote: the most they can cost is held.
  async onCreated(event: JobCreatedEventV1): Promise<void> {
    const estimate = event.estimate ?? quoteJob(this.prices.current(), event.job_type, event.options, null);
    await this.handle(event, async () => ({ kind: 'hold', estimate, options: event.options }));
  }

  // Charges the price of the processed duration at the quote's price version.
  async onCompleted(event: JobCompletedEventV1): Promise<void> {
    await this.handle(event, async (row) => {
      const list = await this.listOf(row);
      return { kind: 'charge', priced: priceOf(list.prices[row.job_type], row.options ?? {}, event.media_duration_seconds), priceVersion: list.version };
    });
  }

  // Failed or cancelled: the hold goes back to the available balance and nothing is charged.
  async onClosed(event: JobFailedEventV1 | JobCancelledEventV1): Promise<void> {
    await this.handle(event, async () => ({ kind: 'release' }));
  }

  // vj.rpc.billing.v1.extend_hold: the price of the duration a worker measured on the input it fetched,
  // at the quote's price version; the hold grows to it when the account can cover it.
  async extendHold(request: ExtendHoldRequestV1): Promise<ExtendHoldReplyV1> {
    if (!(typeof request.duration_seconds === 'number' && Number.isFinite(request.duration_seconds) && request.duration_seconds >= 0)) {
      throw new RpcError('invalid_request', 'duration_seconds must be a number >= 0');
    }
    let required = 0;
    const { decision, row, spendable } = await this.handle(request, async (locked) => {
      const list = await this.listOf(locked);
      const priced = priceOf(list.prices[locked.job_type], locked.options ?? {}, request.duration_seconds);
      required = priced.credits;
      return { kind: 'extend', priced };
    });
    if (decision.conflict) throw new RpcError('conflict', decision.conflict);
    return { covered: decision.covered === true, credits_required: required, credits_held: row.credits_held ?? 0, credits_available: spendable };
  }

  // A held job is priced with its quote's list; a job billing never held for, with the current one.
  private listOf(row: JobBilling): Promise<PriceList> | PriceList {
    return row.price_version !== null && row.state === 'held' ? this.prices.version(row.price_version) : this.prices.current();
  }

  private async handle(job: JobRef, commandFor: (row: JobBilling) => Promise<BillingCommand>) {
    const now = this.now();
    return this.store.withLockedJob(job, now, async (locked) => {
      // What the job may spend: its hold and the account's available credits, before this decision.
      const spendable = (locked.row.state === 'held' ? (locked.row.credits_held ?? 0) : 0) + locked.available;
      const decision: BillingDecision = decide(locked.row, await commandFor(locked.row), locked.available, now);
      await locked.apply(decision, now);
      return { decision, row: locked.row, spendable };
    });
  }
}
