import { randomUUID } from 'node:crypto';
import { subjects, type JobUpdateV1 } from '@vj/contracts';
import { startNatsServer, type LocalNatsServer } from '@vj/local-stack';
import { ensureStreams, JetStreamPublisher } from '@vj/messaging';
import { connect, type NatsConnection } from 'nats';
import { NatsJobUpdatesAdapter } from './nats-job-updates.adapter';

// One job's updates read back by sequence from a real VJ_JOB_UPDATES, other jobs' updates between them.
describe('NatsJobUpdatesAdapter', () => {
  let nats: LocalNatsServer;
  let nc: NatsConnection;
  let publisher: JetStreamPublisher;
  let updates: NatsJobUpdatesAdapter;

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
    await ensureStreams(nc);
    publisher = new JetStreamPublisher(nc);
    updates = new NatsJobUpdatesAdapter(nc);
  });

  afterAll(async () => {
    await nc?.drain();
    await nats?.stop();
  });

  const progress = (jobId: string, value: number): JobUpdateV1 => ({
    version: 1,
    job_id: jobId,
    account_id: 'acct',
    job_type: 'clean-audio-video',
    kind: 'progress',
    stage: 'processing',
    progress: value,
    attempt: 1,
    occurred_at: new Date().toISOString(),
  });
  const publish = async (update: JobUpdateV1) => (await publisher.publish(subjects.jobUpdate(update.job_id), update, { msgId: randomUUID() })).seq;

  it('reads a job\'s updates after a sequence, in order, in batches, skipping other jobs', async () => {
    const mine = randomUUID();
    const other = randomUUID();
    const seqs: number[] = [];
    for (const value of [0.1, 0.2, 0.3]) {
      seqs.push(await publish(progress(mine, value)));
      await publish(progress(other, value));
    }
    const all = await updates.readAfter(mine, 0, 10);
    expect(all.map((u) => u.seq)).toEqual(seqs);
    expect(all.map((u) => (u.update.kind === 'progress' ? u.update.progress : null))).toEqual([0.1, 0.2, 0.3]);
    expect((await updates.readAfter(mine, seqs[0], 1)).map((u) => u.seq)).toEqual([seqs[1]]);
    expect(await updates.readAfter(mine, seqs[2], 10)).toEqual([]);
    expect((await updates.last(mine))?.seq).toBe(seqs[2]);
    expect(await updates.last(randomUUID())).toBeNull();
  });

  it('hears a job\'s updates as they are published, until unsubscribed', async () => {
    const jobId = randomUUID();
    const heard: number[] = [];
    const stop = updates.watch(jobId, (update) => heard.push(update.kind === 'progress' ? update.progress : -1));
    await nc.flush();
    await publish(progress(jobId, 0.5));
    await publish(progress(randomUUID(), 0.7));
    await new Promise((resolve) => setTimeout(resolve, 100));
    stop();
    await publish(progress(jobId, 0.9));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual([0.5]);
  });
});
