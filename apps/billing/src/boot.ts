import { Logger, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { connectNats, ensureStreams, JetStreamServer, serveHealth } from '@vj/messaging';
import type { BillingConfig } from './billing.env';
import { BillingModule } from './billing.module';
import { jobEventsConsumer } from './job-events/job-events-consumer';
import { logLevelsUpTo } from '@vj/config';

export interface RunningBilling {
  app: INestMicroservice;
  stop(): Promise<void>;
}

export async function bootBilling(config: BillingConfig): Promise<RunningBilling> {
  const nc = await connectNats({ url: config.NATS_URL, name: 'billing' });
  await ensureStreams(await nc.jetstreamManager());
  const server = new JetStreamServer({ connection: nc, consumers: [jobEventsConsumer] });
  const app = await NestFactory.createMicroservice(BillingModule, { strategy: server, logger: logLevelsUpTo(config.LOG_LEVEL) });
  let ready = false;
  const health = serveHealth(nc, 'billing', () => ready && !nc.isClosed());
  await app.listen();
  ready = true;
  new Logger('billing').log('ready: consuming job events');
  return {
    app,
    async stop() {
      ready = false;
      // Running handlers finish (JetStreamServer.close waits for them); unsettled events are redelivered.
      await app.close();
      health.unsubscribe();
      await nc.drain();
    },
  };
}
