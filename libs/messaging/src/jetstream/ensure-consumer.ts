import { AckPolicy, DeliverPolicy, nanos, type ConsumerConfig, type JetStreamManager } from 'nats';
import { isNotFound } from './api-errors';
import { retryOnTimeout } from './api-retry';
import type { ConsumerSpec } from './consumer-spec';

export function consumerConfig(spec: ConsumerSpec): Partial<ConsumerConfig> {
  return {
    durable_name: spec.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: spec.filterSubject,
    ack_wait: nanos(spec.ackWaitMs),
    max_deliver: spec.maxDeliver,
    ...(spec.maxAckPending !== undefined && { max_ack_pending: spec.maxAckPending }),
  };
}

// Idempotent add-or-update of a durable pull consumer, called by the service that owns it (by each of
// its instances, at once when they boot together: retryOnTimeout).
export function ensureConsumer(jsm: JetStreamManager, spec: ConsumerSpec): Promise<void> {
  return retryOnTimeout(async () => {
    const config = consumerConfig(spec);
    try {
      await jsm.consumers.info(spec.stream, spec.durable);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      await jsm.consumers.add(spec.stream, config);
      return;
    }
    // nats-server 2.9 cannot change deliver/filter settings of an existing consumer; timings it can.
    await jsm.consumers.update(spec.stream, spec.durable, { ack_wait: config.ack_wait, max_deliver: config.max_deliver });
  });
}
