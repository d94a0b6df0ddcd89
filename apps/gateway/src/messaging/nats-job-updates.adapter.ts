import { STREAMS, subjects, type JobUpdateV1 } from '@vj/contracts';
import { decodeJson, isNotFound } from '@vj/messaging';
import type { JetStreamManager, MsgRequest, NatsConnection, StoredMsg } from 'nats';
import type { JobUpdatesPort, StoredJobUpdate } from '../jobs';

// Reads a job's subject message by message (STREAM.MSG.GET with next_by_subj): no consumer to
// create or clean up per follower, and the gateway may only read this one stream.
export class NatsJobUpdatesAdapter implements JobUpdatesPort {
  private manager?: Promise<JetStreamManager>;

  constructor(private readonly nc: NatsConnection) {}

  async readAfter(jobId: string, afterSeq: number, limit: number): Promise<StoredJobUpdate[]> {
    const read: StoredJobUpdate[] = [];
    let seq = afterSeq;
    while (read.length < limit) {
      // nats.js types only the seq and last_by_subj forms; the server also takes next_by_subj.
      const next = await this.get({ seq: seq + 1, next_by_subj: subjects.jobUpdate(jobId) } as unknown as MsgRequest);
      if (!next) break;
      read.push(next);
      seq = next.seq;
    }
    return read;
  }

  last(jobId: string): Promise<StoredJobUpdate | null> {
    return this.get({ last_by_subj: subjects.jobUpdate(jobId) });
  }

  watch(jobId: string, onUpdate: (update: JobUpdateV1) => void): () => void {
    const subscription = this.nc.subscribe(subjects.jobUpdate(jobId), {
      callback: (error, msg) => {
        if (error) return;
        try {
          onUpdate(decodeJson<JobUpdateV1>(msg.data));
        } catch {
          // Unreadable: the stored record is read with readAfter anyway.
        }
      },
    });
    return () => subscription.unsubscribe();
  }

  private async get(query: MsgRequest): Promise<StoredJobUpdate | null> {
    this.manager ??= this.nc.jetstreamManager({ checkAPI: false });
    let stored: StoredMsg;
    try {
      stored = await (await this.manager).streams.getMessage(STREAMS.jobUpdates, query);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    return { seq: stored.seq, update: stored.json<JobUpdateV1>() };
  }
}
