import type { DestinationPolicy } from '@vj/egress';
import { sendWebhook, signWebhook, type SenderLimits } from '@vj/webhooks';
import { afterAttempt } from '../domain/delivery-state-machine';
import { signingSecrets } from '../domain/endpoint-secrets';
import { observeAttempt } from '../metrics/delivery-metrics';
import type { ClaimedDelivery, DeliveryStore } from './delivery-store';

export interface DispatcherSettings {
  schedule: readonly number[];
  limits: SenderLimits;
  policy: DestinationPolicy;
  // Deliveries claimed at once, and how long a claim holds (past the sender's time limit).
  batch: number;
  leaseMs: number;
}

// One round: claims the due deliveries, sends each (its webhook-id is the delivery's id, the same on
// every attempt), records the attempt and what follows. Returns how many it sent.
export class DeliveryDispatcher {
  constructor(
    private readonly store: DeliveryStore,
    private readonly settings: DispatcherSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async dispatchDue(): Promise<number> {
    const claimed = await this.store.claimDue(this.now(), this.settings.batch, this.settings.leaseMs);
    await Promise.all(claimed.map((item) => this.deliver(item)));
    return claimed.length;
  }

  private async deliver({ delivery, endpoint }: ClaimedDelivery): Promise<void> {
    if (endpoint.disabled_at || endpoint.deleted_at) return this.store.giveUp(delivery.delivery_id);
    const sentAt = this.now();
    const headers = signWebhook(signingSecrets(endpoint, sentAt), delivery.delivery_id, sentAt, delivery.body);
    const result = await sendWebhook({ url: endpoint.url, body: delivery.body, headers }, this.settings.policy, this.settings.limits);
    const outcome = afterAttempt(delivery, result, this.settings.schedule, this.now().getTime());
    observeAttempt(outcome, result.durationMs, delivery.created_at, this.now());
    await this.store.record(
      delivery.delivery_id,
      endpoint.endpoint_id,
      { attempted_at: sentAt, status_code: result.status, error: result.error, duration_ms: result.durationMs, response_body: result.responseBody },
      outcome,
      this.now(),
    );
  }
}
