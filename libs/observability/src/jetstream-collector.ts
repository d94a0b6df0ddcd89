import type { JetStreamManager } from 'nats';
import { gauge } from './metrics';

export interface ConsumerRef {
  stream: string;
  durable: string;
}

export interface JetStreamCollectorOptions {
  // The durable consumers whose lag to report: a service's own (its NATS user may read their info).
  consumers: ConsumerRef[];
  // Streams whose depth and size to report.
  streams?: string[];
  // The dead-letter stream, counted per consumer from its subjects (vj.dead.v1.<consumer>).
  deadLetters?: { stream: string; consumers: string[] };
}

const streamMessages = () => gauge({ name: 'jetstream_stream_messages', help: 'messages held in the stream (for VJ_WORK and VJ_JOB_REPORTS: the queue depth)', labelNames: ['stream'] });
const streamBytes = () =>
  gauge({ name: 'jetstream_stream_bytes', help: 'bytes the stream holds on each of its servers (their sum against the JetStream volume: the storage alert)', labelNames: ['stream'] });
const consumerPending = () =>
  gauge({ name: 'jetstream_consumer_pending_messages', help: 'messages of the stream the consumer has not been delivered yet: its lag', labelNames: ['stream', 'consumer'] });
const consumerAckPending = () =>
  gauge({ name: 'jetstream_consumer_ack_pending_messages', help: 'messages delivered to the consumer and not settled yet (being handled)', labelNames: ['stream', 'consumer'] });
const consumerRedelivered = () =>
  gauge({ name: 'jetstream_consumer_redelivered_messages', help: 'messages delivered more than once and not settled yet', labelNames: ['stream', 'consumer'] });
const deadLetters = () => gauge({ name: 'dead_letters', help: 'dead letters kept in VJ_DEAD_LETTERS (listed and replayed with the CLI), by consumer', labelNames: ['consumer'] });

// Reads consumer and stream info from JetStream for /metrics. Every instance of a service reports the
// same numbers: aggregate with max() by (stream, consumer), not sum().
export function jetStreamCollector(jsm: JetStreamManager, options: JetStreamCollectorOptions): () => Promise<void> {
  return async () => {
    await Promise.all([
      ...options.consumers.map(async ({ stream, durable }) => {
        const info = await jsm.consumers.info(stream, durable);
        const labels = { stream, consumer: durable };
        consumerPending().set(labels, info.num_pending);
        consumerAckPending().set(labels, info.num_ack_pending);
        consumerRedelivered().set(labels, info.num_redelivered);
      }),
      ...(options.streams ?? []).map(async (stream) => {
        const { state } = await jsm.streams.info(stream);
        streamMessages().set({ stream }, state.messages);
        streamBytes().set({ stream }, state.bytes);
      }),
      options.deadLetters ? countDeadLetters(jsm, options.deadLetters) : Promise.resolve(),
    ]);
  };
}

async function countDeadLetters(jsm: JetStreamManager, { stream, consumers }: { stream: string; consumers: string[] }): Promise<void> {
  const info = await jsm.streams.info(stream, { subjects_filter: '>' });
  const bySubject = (info.state.subjects ?? {}) as Record<string, number>;
  const counts = new Map<string, number>(consumers.map((consumer) => [consumer, 0]));
  for (const [subject, count] of Object.entries(bySubject)) {
    const consumer = subject.slice(subject.lastIndexOf('.') + 1);
    counts.set(consumer, (counts.get(consumer) ?? 0) + count);
  }
  for (const [consumer, count] of counts) deadLetters().set({ consumer }, count);
}
