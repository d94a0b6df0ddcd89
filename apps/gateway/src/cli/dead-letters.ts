import { STREAMS, type DeadLetterRecordV1 } from '@vj/contracts';
import { decodeJson } from '@vj/messaging';
import type { NatsConnection } from 'nats';

export interface DeadLetterListing extends Omit<DeadLetterRecordV1, 'version' | 'payload'> {
  seq: number;
  payload: unknown;
}

export class UnknownDeadLetterError extends Error {}
export class UnreplayableDeadLetterError extends Error {}

// The operator's view of VJ_DEAD_LETTERS (decision 0029): newest first, optionally one consumer's; a
// replay publishes the message again to the subject it came from (a new msgId, so the stream's dedup
// never drops it) and removes it from the dead letters.
export class DeadLetters {
  constructor(private readonly nc: NatsConnection) {}

  async list(options: { consumer?: string; limit: number }): Promise<{ dead_letters: DeadLetterListing[] }> {
    const jsm = await this.nc.jetstreamManager();
    const { state } = await jsm.streams.info(STREAMS.deadLetters);
    const found: DeadLetterListing[] = [];
    for (let seq = state.last_seq; seq >= state.first_seq && state.messages > 0 && found.length < options.limit; seq--) {
      const record = await this.read(seq);
      if (record && (!options.consumer || record.consumer === options.consumer)) found.push(record);
    }
    return { dead_letters: found };
  }

  async replay(seq: number): Promise<{ replayed: number; subject: string; consumer: string }> {
    const record = await this.read(seq);
    if (!record) throw new UnknownDeadLetterError(`no dead letter ${seq}`);
    // Its payload is the text of bytes that were never JSON: published again, no handler could read it.
    if (record.reason === 'undecodable') throw new UnreplayableDeadLetterError(`dead letter ${seq} was not JSON when it arrived; it cannot be replayed`);
    await this.nc.jetstream().publish(record.subject, new TextEncoder().encode(JSON.stringify(record.payload)), { msgID: `replay:${record.stream}:${record.stream_seq}:${Date.now()}` });
    await (await this.nc.jetstreamManager()).streams.deleteMessage(STREAMS.deadLetters, seq, false);
    return { replayed: seq, subject: record.subject, consumer: record.consumer };
  }

  private async read(seq: number): Promise<DeadLetterListing | null> {
    try {
      const stored = await (await this.nc.jetstreamManager()).streams.getMessage(STREAMS.deadLetters, { seq });
      const { version: _version, ...record } = decodeJson<DeadLetterRecordV1>(stored.data);
      return { seq, ...record };
    } catch (error) {
      if ((error as { code?: string }).code === '404' || /no message found/i.test(String(error))) return null;
      throw error;
    }
  }
}
