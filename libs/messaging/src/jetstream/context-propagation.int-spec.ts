import { context, trace, TraceFlags } from '@opentelemetry/api';
import { CONSUMERS, RPC_ENDPOINTS, STREAMS, subjects } from '@vj/contracts';
import { startNatsServer, waitFor, type LocalNatsServer } from '@vj/local-stack';
import { currentLogContext, metricsText, registerPropagation, runWithLogContext } from '@vj/observability';
import { connect, type NatsConnection } from 'nats';
import { JobsRpcClient } from '../rpc/rpc-client';
import { serveRpc } from '../rpc/serve-rpc';
import { JetStreamPublisher } from './jetstream-publisher';
import { JetStreamConsumers } from './jetstream-consumers';
import { ensureStreams } from './streams';

const CLEAN = subjects.work('clean-audio-video');
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

describe('request, job, account and trace context from a publisher to a handler, over nats-server', () => {
  let nats: LocalNatsServer;
  let nc: NatsConnection;
  let server: JetStreamConsumers | undefined;

  beforeAll(async () => {
    registerPropagation();
    nats = await startNatsServer();
    nc = await connect({ servers: nats.url });
    await ensureStreams(await nc.jetstreamManager());
  });

  afterAll(async () => {
    await server?.close();
    await nc.close();
    await nats.stop();
  });

  it('JetStreamConsumers runs the handler in the context the message carries, and counts it for /metrics', async () => {
    const seen: { log: unknown; traceId?: string }[] = [];
    const handler = async (): Promise<void> => {
      seen.push({ log: { ...currentLogContext() }, traceId: trace.getSpanContext(context.active())?.traceId });
    };
    server = new JetStreamConsumers({
      connection: nc,
      consumers: [
        {
          stream: STREAMS.work,
          durable: CONSUMERS.renderWorker,
          filterSubject: subjects.workAll(),
          subjects: [CLEAN, subjects.work('video-background-removal')],
          ackWaitMs: 5_000,
          maxDeliver: 2,
          concurrency: 1,
          backoffMs: [100],
          maxProcessingMs: 10_000,
        },
      ],
      handlers: { [CLEAN]: handler, [subjects.work('video-background-removal')]: handler },
      deadLetterHandlers: { [CONSUMERS.renderWorker]: async () => undefined },
      pullExpiresMs: 1_000,
      closeTimeoutMs: 2_000,
    });
    await server.start();

    const parent = trace.setSpanContext(context.active(), { traceId: TRACE_ID, spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED, isRemote: true });
    await runWithLogContext({ request_id: 'req-42' }, () =>
      context.with(parent, () => new JetStreamPublisher(nc).publish(CLEAN, { job_id: 'job-42', account_id: 'acc-42' }, { msgId: 'ctx-1' })),
    );
    await waitFor('handled', async () => seen.length === 1);
    expect(seen[0]).toEqual({ log: { request_id: 'req-42', job_id: 'job-42', account_id: 'acc-42' }, traceId: TRACE_ID });
    await waitFor('counted', async () => (await metricsText()).includes(`jetstream_handler_duration_seconds_count{consumer="render-worker",subject="${CLEAN}",outcome="ok"} 1`));
  });

  it('serveRpc restores the caller request id over a real request/reply', async () => {
    const seen: unknown[] = [];
    const handler = async () => (seen.push({ ...currentLogContext() }), { job: null });
    const rpc = serveRpc(nc, RPC_ENDPOINTS.jobs, Object.fromEntries(RPC_ENDPOINTS.jobs.methods.map((m) => [m, handler])) as never);
    try {
      await runWithLogContext({ request_id: 'req-7' }, () => new JobsRpcClient(nc).call('get', { version: 1, account_id: 'acc-7', job_id: 'job-7' }));
      expect(seen).toEqual([{ request_id: 'req-7', job_id: 'job-7', account_id: 'acc-7' }]);
      expect(await metricsText()).toContain('rpc_server_duration_seconds_count{service="jobs",method="get",outcome="ok"} 1');
    } finally {
      await rpc.close();
    }
  });
});
