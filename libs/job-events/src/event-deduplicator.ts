// Delivery is at least once: a redelivered event (a crash before the ack, a relay that published twice
// with another message id) must change nothing. once() runs the work for an event id it has not seen
// and records the id; a store that records it in the same transaction as the work's own writes makes
// the effect exactly once (examples/job-counts does so in PostgreSQL).
export interface EventDeduplicator {
  once(eventId: string, work: () => Promise<void>): Promise<'done' | 'duplicate'>;
}

// Remembers the last `capacity` event ids of this process: enough against redeliveries, which come
// within the ack wait, but not across restarts. For effects that must survive one, record the id with them.
export class InMemoryDeduplicator implements EventDeduplicator {
  private readonly seen = new Set<string>();

  constructor(private readonly capacity = 100_000) {}

  async once(eventId: string, work: () => Promise<void>): Promise<'done' | 'duplicate'> {
    if (this.seen.has(eventId)) return 'duplicate';
    await work();
    this.seen.add(eventId);
    if (this.seen.size > this.capacity) this.seen.delete(this.seen.values().next().value as string);
    return 'done';
  }
}
