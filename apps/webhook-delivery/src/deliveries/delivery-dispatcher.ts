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
  // Deliveries in flight at once on this instance, and how long a claim holds (past the sender's limit).
  batch: number;
  leaseMs: number;
}

export interface DispatcherHooks {
  // A send finished: there is room for another (the loop claims more at once).
  onSettled?: () => void;
  onError?: (error: unknown) => void;
}

// Keeps up to `batch` deliveries in flight: each round claims as many due ones as there is room for
// and starts them, so a slow receiver holds its own slots, not everyone's. Each is sent (its
// webhook-id is the delivery's id, the same on every attempt), then its attempt and what follows are
// recorded under its claim.
export class DeliveryDispatcher {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly store: DeliveryStore,
    private readonly settings: DispatcherSettings,
    private readonly now: () => Date = () => new Date(),
    private readonly hooks: DispatcherHooks = {},
  ) {}

  // Claims and starts what is due; returns how many it started.
  async dispatchDue(): Promise<number> {
    const room = this.settings.batch - this.inFlight.size;
    if (room <= 0) return 0;
    const claimed = await this.store.claimDue(this.now(), room, this.settings.leaseMs);
    for (const item of claimed) {
      const sending: Promise<void> = this.deliver(item)
        .catch((error: unknown) => this.hooks.onError?.(error))
        .finally(() => {
          this.inFlight.delete(sending);
          this.hooks.onSettled?.();
        });
      this.inFlight.add(sending);
    }
    return claimed.length;
  }

  // Resolves once every send started so far is sent and recorded (a shutdown waits for this).
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async deliver({ delivery, endpoint, lease }: ClaimedDelivery): Promise<void> {
    if (endpoint.disabled_at || endpoint.deleted_at) return this.store.giveUp(delivery.delivery_id, lease);
    const sentAt = this.now();
    const headers = signWebhook(signingSecrets(endpoint, sentAt), delivery.delivery_id, sentAt, delivery.body);
    const result = await sendWebhook({ url: endpoint.url, body: delivery.body, headers }, this.settings.policy, this.settings.limits);
    // Progress is a live signal: a late one would contradict the job's later events, so none is retried.
    const schedule = delivery.event_type === 'job.progress' ? [] : this.settings.schedule;
    const outcome = afterAttempt(delivery, result, schedule, this.now().getTime());
    observeAttempt(outcome, result.durationMs, delivery.created_at, this.now());
    await this.store.record(
      { deliveryId: delivery.delivery_id, endpointId: endpoint.endpoint_id, lease },
      { attempted_at: sentAt, status_code: result.status, error: result.error, duration_ms: result.durationMs, response_body: result.responseBody },
      outcome,
      this.now(),
    );
  }
}
