import { CONSUMERS, STREAMS, subjects, type JobCreatedEventV1 } from '@vj/contracts';
import { startNatsServer, waitFor, type LocalNatsServer } from '@vj/local-stack';
import { JetStreamPublisher, pingHealth } from '@vj/messaging';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { billingEnv } from './billing.env';
import { bootBilling, type RunningBilling } from './boot';
import { JobEventLedger } from './job-events/job-event-ledger';

describe('billing against nats-server', () => {
  let nats: LocalNatsServer;
  let nc: NatsConnection;
  let billing: RunningBilling;

  beforeAll(async () => {
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
    billing = await bootBilling(billingEnv.parse({ NATS_URL: nats.url, LOG_LEVEL: 'error' }));
  });

  afterAll(async () => {
    await billing?.stop();
    await nc?.close();
    await nats?.stop();
  });

  it('answers the health probe as ready', async () => {
    expect(await pingHealth(nc, 'billing')).toEqual(expect.objectContaining({ service: 'billing', ready: true }));
  });

  it('hands a job event to its handler once and acks it', async () => {
    const record = jest.spyOn(billing.app.get(JobEventLedger), 'record');
    const event: JobCreatedEventV1 = {
      version: 1,
      event_id: randomUUID(),
      occurred_at: new Date().toISOString(),
      job_id: randomUUID(),
      account_id: 'acct-1',
      job_type: 'clean-audio-video',
      options: { strength: 0.874, normalize_loudness: true, target_lufs: -19 },
    };
    await new JetStreamPublisher(nc).publish(subjects.jobEvent('created'), event, { msgId: event.event_id });
    const jsm = await nc.jetstreamManager();
    await waitFor('acked', async () => {
      const info = await jsm.consumers.info(STREAMS.jobEvents, CONSUMERS.billingJobEvents);
      return info.ack_floor.stream_seq >= 1 && info.num_ack_pending === 0 && info.num_pending === 0;
    });
    expect(record.mock.calls).toEqual([['created', event]]);
  });
});
