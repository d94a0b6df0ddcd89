import { Logger } from '@nestjs/common';
import { CONSUMERS } from '@vj/contracts';
import { answersQueries } from '@vj/database';
import { AllowList, resolveWithSystemDns } from '@vj/egress';
import { JobEventsConsumer } from '@vj/job-events';
import { connectNats, ensureStreams, JobsRpcClient, serveHealth } from '@vj/messaging';
import { jetStreamCollector, type OpsServer } from '@vj/observability';
import { ObjectStorage, storageConfig } from '@vj/storage';
import { parseRetrySchedule } from '@vj/webhooks';
import { createWebhooksDataSource } from './database/webhooks-data-source';
import { runWebhooksMigrations } from './database/run-webhooks-migrations';
import { DeliveryDispatcher } from './deliveries/delivery-dispatcher';
import { DeliveryStore } from './deliveries/delivery-store';
import { DispatchLoop } from './deliveries/dispatch-loop';
import { WebhookEndpoints } from './endpoints/webhook-endpoints';
import { JobEventIntake } from './intake/job-event-intake';
import { JOB_UPDATES_CONSUMER, JobProgressIntake } from './intake/job-progress-intake';
import { ProgressEndpoints } from './intake/progress-endpoints';
import { RenderedJobReader } from './intake/rendered-job-reader';
import type { WebhooksConfig } from './webhooks.env';
import { serveWebhookEndpoints } from './webhooks-rpc';
import { deliveryBacklogCollector } from './metrics/delivery-metrics';
import { WebhookRetention } from './retention/webhook-retention';

export interface RunningWebhookDelivery {
  stop(): Promise<void>;
}

// A claim outlives the sender's time limit by this much, so a live instance never loses its claim.
const LEASE_MARGIN_MS = 10_000;
const JOBS_RPC_TIMEOUT_MS = 5_000;
const RETENTION_SWEEP_MS = 3_600_000;

// Job events in (one durable consumer shared by every instance), deliveries out (each instance claims
// due rows), the account's endpoints served over RPC. Nothing is held in memory: every delivery is a
// row before its event is acknowledged, so a kill -9 loses none.
export async function bootWebhookDelivery(config: WebhooksConfig, ops?: OpsServer): Promise<RunningWebhookDelivery> {
  const logger = new Logger('webhook-delivery');
  const schedule = parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE);
  const dataSource = await createWebhooksDataSource(config.DATABASE_URL).initialize();
  await runWebhooksMigrations(dataSource);
  const nc = await connectNats({ url: config.NATS_URL, name: 'webhook-delivery' });
  await ensureStreams(nc);
  const storage = new ObjectStorage(storageConfig(config));

  const reportError = (what: string) => (error: unknown) => logger.error(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  const dispatcher = new DeliveryDispatcher(
    new DeliveryStore(dataSource),
    {
      schedule,
      limits: { timeoutMs: config.WEBHOOK_TIMEOUT_MS, maxResponseBytes: config.WEBHOOK_MAX_RESPONSE_BYTES },
      policy: { allowList: AllowList.parse(config.WEBHOOK_ALLOW_HOSTS, 'WEBHOOK_ALLOW_HOSTS'), resolve: resolveWithSystemDns },
      batch: config.WEBHOOK_DISPATCH_BATCH,
      leaseMs: config.WEBHOOK_TIMEOUT_MS + LEASE_MARGIN_MS,
    },
    undefined,
    // A finished send makes room: claim the next due one at once.
    { onSettled: () => loop.nudge(), onError: reportError('recording an attempt failed (the delivery is sent again once its claim ends)') },
  );
  const loop = new DispatchLoop(() => dispatcher.dispatchDue(), {
    batch: config.WEBHOOK_DISPATCH_BATCH,
    idleMs: config.WEBHOOK_DISPATCH_IDLE_MS,
    onError: reportError('dispatch round failed'),
  });
  const nudge = () => loop.nudge();
  const intake = new JobEventIntake(dataSource, new RenderedJobReader(new JobsRpcClient(nc, JOBS_RPC_TIMEOUT_MS), storage, config.RESULT_URL_TTL_SECONDS), nudge);
  const events = new JobEventsConsumer(nc, {
    durable: CONSUMERS.webhooksJobEvents,
    // An outage of the jobs service or the database holds the events back, never drops one.
    maxDeliver: -1,
    backoffMs: [1_000, 5_000, 15_000, 60_000],
    handle: async (event) => void (await intake.take(event)),
    log: (line) => logger.warn(line),
  });
  const progressEndpoints = new ProgressEndpoints(dataSource);
  const progress = new JobProgressIntake(nc, dataSource, progressEndpoints, nudge, (line) => logger.warn(line));
  const rpc = serveWebhookEndpoints(nc, new WebhookEndpoints(dataSource, { onDue: nudge, onChanged: (accountId) => progressEndpoints.forget(accountId) }));

  let ready = false;
  const health = serveHealth(nc, 'webhook-delivery', async () => ready && !nc.isClosed() && (await answersQueries(dataSource)));
  if (ops) {
    ops.setReadiness({ started: () => ready, nats: () => nc.flush().then(() => true), database: () => answersQueries(dataSource) });
    ops.addCollector('deliveries', deliveryBacklogCollector(dataSource), 15_000);
    ops.addCollector('jetstream', jetStreamCollector(await nc.jetstreamManager(), { consumers: [events.spec, JOB_UPDATES_CONSUMER] }));
  }
  await events.start();
  await progress.start();
  loop.start();
  const retention = new WebhookRetention(dataSource, config.WEBHOOK_RETENTION_DAYS * 24 * 3_600_000);
  const sweeping = setInterval(() => void retention.sweep(new Date()).catch(reportError('retention sweep failed')), RETENTION_SWEEP_MS);
  ready = true;
  logger.log(`ready: consuming job events, delivering (retry schedule ${config.WEBHOOK_RETRY_SCHEDULE})`);
  return {
    async stop() {
      ready = false;
      clearInterval(sweeping);
      // Events in hand finish and are acknowledged; a round in progress records its attempts.
      await rpc.close();
      await Promise.all([events.stop(), progress.stop(), loop.stop()]);
      await dispatcher.settled();
      health.unsubscribe();
      await nc.drain();
      await dataSource.destroy();
    },
  };
}
