import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BILLING_RPC_METHODS, CONSUMERS, MEDIA_RPC_METHODS, queueGroups, RPC_METHODS, SERVICES, STREAM_SUBJECTS, STREAMS, subjects, WEBHOOKS_RPC_METHODS, type BillingRpcMethod, type ConsumerName, type StreamName } from '@vj/contracts';
import { AckPolicy, connect, DeliverPolicy, nanos, NatsError, RetentionPolicy, StorageType, type JsMsg, type NatsConnection } from 'nats';
import { freePort, waitFor } from '@vj/local-stack';
import { NATS_USERS, natsPasswordVariable, type NatsUser } from './service-permissions';

// The committed deploy/nats/nats.conf, run by the Debian nats-server (2.9) with its passwords in the
// environment, the way docker-compose.yml runs it: every service does what it really does over NATS
// (the same calls libs/messaging makes), and what a user is not meant to do is refused.

const CONFIG = join(__dirname, '..', '..', 'deploy', 'nats', 'nats.conf');
// nats-server reads an environment value as a configuration token: a password starts with a letter.
const passwords = Object.fromEntries(NATS_USERS.map((user) => [user, `p${randomBytes(16).toString('hex')}`])) as Record<NatsUser, string>;
const data = new TextEncoder().encode('{}');

let url: string;
let server: ChildProcess;
let storeDir: string;
const connections: NatsConnection[] = [];

async function as(user: NatsUser): Promise<NatsConnection> {
  const nc = await connect({ servers: url, user, pass: passwords[user], name: user });
  connections.push(nc);
  return nc;
}

function permissionError(error: unknown): string {
  return error instanceof NatsError && error.code === 'PERMISSIONS_VIOLATION' ? 'refused' : `not refused: ${String(error)}`;
}

// A request the server refuses to route: nats.js rejects it with the server's permissions violation.
async function requestOutcome(nc: NatsConnection, subject: string): Promise<string> {
  try {
    await nc.request(subject, data, { timeout: 2_000 });
    return 'answered';
  } catch (error) {
    return permissionError(error);
  }
}

// The server answers a refused SUB with an error on the subscription.
function subscribeOutcome(nc: NatsConnection, subject: string, queue?: string): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('subscribed'), 1_500);
    nc.subscribe(subject, {
      queue,
      callback: (error) => {
        clearTimeout(timer);
        resolve(error ? permissionError(error) : 'delivered');
      },
    });
  });
}

// Each stream as libs/messaging ensureStreams declares it: info, then add or update.
async function ensureStreams(nc: NatsConnection): Promise<void> {
  const jsm = await nc.jetstreamManager();
  for (const [name, streamSubjects] of Object.entries(STREAM_SUBJECTS)) {
    const queue = name === STREAMS.work || name === STREAMS.reports;
    const config = { name, subjects: streamSubjects, storage: StorageType.File, retention: queue ? RetentionPolicy.Workqueue : RetentionPolicy.Limits };
    const exists = await jsm.streams.info(name).then(
      () => true,
      () => false,
    );
    if (exists) await jsm.streams.update(name, config);
    else await jsm.streams.add(config);
  }
}

// A durable pull consumer as libs/messaging ensureConsumer makes it: info, then add or update.
async function ensureConsumer(nc: NatsConnection, stream: StreamName, durable: ConsumerName, ackWaitMs: number, maxDeliver: number) {
  const jsm = await nc.jetstreamManager();
  const exists = await jsm.consumers.info(stream, durable).then(
    () => true,
    () => false,
  );
  if (exists) {
    await jsm.consumers.update(stream, durable, { ack_wait: nanos(ackWaitMs), max_deliver: maxDeliver });
    return;
  }
  await jsm.consumers.add(stream, {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: STREAM_SUBJECTS[stream][0],
    ack_wait: nanos(ackWaitMs),
    max_deliver: maxDeliver,
  });
}

async function pullOne(nc: NatsConnection, stream: StreamName, durable: ConsumerName): Promise<JsMsg> {
  const consumer = await nc.jetstream().consumers.get(stream, durable);
  const batch = await consumer.fetch({ max_messages: 1, expires: 3_000 });
  for await (const msg of batch) return msg;
  throw new Error(`nothing to pull from ${stream}/${durable}`);
}

// Subscriptions the server refused while serving (should stay empty).
const refusedServing: string[] = [];

// Answers every request on the subjects with {}, in the queue group the real server uses.
function serve(nc: NatsConnection, subjectsServed: string[], queue: string): void {
  for (const subject of subjectsServed) {
    nc.subscribe(subject, {
      queue,
      callback: (error, msg) => (error ? refusedServing.push(`${subject}: ${error.message}`) : msg.respond(data)),
    });
  }
}

beforeAll(async () => {
  const port = await freePort();
  url = `nats://127.0.0.1:${port}`;
  storeDir = mkdtempSync(join(tmpdir(), 'vj-nats-deploy-'));
  const env = { ...process.env, ...Object.fromEntries(NATS_USERS.map((user) => [natsPasswordVariable(user), passwords[user]])) };
  server = spawn('nats-server', ['-c', CONFIG, '-a', '127.0.0.1', '-p', String(port), '-sd', storeDir], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  server.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  await waitFor('nats-server with deploy/nats/nats.conf', async () => {
    if (server.exitCode !== null) throw new Error(`nats-server exited: ${stderr}`);
    await (await connect({ servers: url, user: 'gateway', pass: passwords.gateway, timeout: 500 })).close();
    return true;
  });
});

afterAll(async () => {
  await Promise.all(connections.map((nc) => nc.close()));
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
  rmSync(storeDir, { recursive: true, force: true });
});

describe('deploy/nats/nats.conf on nats-server', () => {
  it('refuses a connection without a user or with a wrong password', async () => {
    await expect(connect({ servers: url, timeout: 2_000 })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    await expect(connect({ servers: url, user: 'gateway', pass: passwords.jobs, timeout: 2_000 })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
  });

  describe('with the services connected as they boot', () => {
    let gateway: NatsConnection;
    let jobs: NatsConnection;
    let worker: NatsConnection;
    let billing: NatsConnection;
    let webhooks: NatsConnection;
    let operator: NatsConnection;

    beforeAll(async () => {
      [gateway, jobs, worker, billing, webhooks, operator] = await Promise.all(
        ['gateway', 'jobs', 'render-worker', 'billing', 'webhook-delivery', 'operator'].map((u) => as(u as NatsUser)),
      );
      // Every service with JetStream ensures the streams (the first one creates them, the others update).
      for (const nc of [jobs, worker, billing, webhooks]) await ensureStreams(nc);
      // Twice: the add path, then the update path of ensureConsumer.
      for (let i = 0; i < 2; i++) {
        await ensureConsumer(jobs, STREAMS.reports, CONSUMERS.jobsReports, 30_000, 5);
        await ensureConsumer(jobs, STREAMS.billingEvents, CONSUMERS.jobsBillingEvents, 30_000, 5);
        await ensureConsumer(billing, STREAMS.jobEvents, CONSUMERS.billingJobEvents, 30_000, 5);
        await ensureConsumer(webhooks, STREAMS.jobEvents, CONSUMERS.webhooksJobEvents, 30_000, 10);
        await ensureConsumer(webhooks, STREAMS.jobUpdates, CONSUMERS.webhooksJobUpdates, 30_000, 5);
        // One delivery and a short ack wait, so the dead-letter test below sees MAX_DELIVERIES quickly.
        await ensureConsumer(worker, STREAMS.work, CONSUMERS.renderWorker, 1_500, 1);
      }
      serve(jobs, RPC_METHODS.map((m) => subjects.jobsRpc(m)), queueGroups.jobsRpc());
      serve(billing, BILLING_RPC_METHODS.map((m) => subjects.billingRpc(m)), queueGroups.billingRpc());
      serve(worker, MEDIA_RPC_METHODS.map((m) => subjects.mediaRpc(m)), queueGroups.mediaRpc());
      serve(webhooks, WEBHOOKS_RPC_METHODS.map((m) => subjects.webhooksRpc(m)), queueGroups.webhooksRpc());
      serve(jobs, [subjects.health('jobs')], queueGroups.health('jobs'));
      serve(worker, [subjects.health('render-worker')], queueGroups.health('render-worker'));
      serve(billing, [subjects.health('billing')], queueGroups.health('billing'));
      serve(webhooks, [subjects.health('webhook-delivery')], queueGroups.health('webhook-delivery'));
      await Promise.all([jobs, worker, billing, webhooks].map((nc) => nc.flush()));
    });

    it('lets each service answer every method of its RPC catalogue and its health pings', () => {
      expect(refusedServing).toEqual([]);
    });

    it('lets the gateway call the jobs, billing, media and webhooks RPC and ping every service', async () => {
      expect(await requestOutcome(gateway, subjects.jobsRpc('create'))).toBe('answered');
      expect(await requestOutcome(gateway, subjects.jobsRpc('list'))).toBe('answered');
      expect(await requestOutcome(gateway, subjects.billingRpc('price_list'))).toBe('answered');
      expect(await requestOutcome(gateway, subjects.billingRpc('usage'))).toBe('answered');
      expect(await requestOutcome(gateway, subjects.mediaRpc('probe'))).toBe('answered');
      for (const method of WEBHOOKS_RPC_METHODS) expect(await requestOutcome(gateway, subjects.webhooksRpc(method))).toBe('answered');
      for (const service of SERVICES) expect(await requestOutcome(gateway, subjects.health(service))).toBe('answered');
    });

    it('lets the operator grant credits after a billing health ping, and the worker read a job', async () => {
      expect(await requestOutcome(operator, subjects.health('billing'))).toBe('answered');
      expect(await requestOutcome(operator, subjects.billingRpc('grant'))).toBe('answered');
      expect(await requestOutcome(worker, subjects.jobsRpc('get'))).toBe('answered');
      // The webhook delivery service reads the job it puts in a webhook.
      expect(await requestOutcome(webhooks, subjects.jobsRpc('get'))).toBe('answered');
      // Methods added to the catalogues reach their callers through the rendered file.
      for (const method of RPC_METHODS) expect(await requestOutcome(gateway, subjects.jobsRpc(method))).toBe('answered');
      if ((BILLING_RPC_METHODS as readonly string[]).includes('extend_hold')) {
        expect(await requestOutcome(worker, subjects.billingRpc('extend_hold' as BillingRpcMethod))).toBe('answered');
        expect(await requestOutcome(gateway, subjects.billingRpc('extend_hold' as BillingRpcMethod))).toBe('refused');
      }
    });

    it('refuses RPC calls a user is not meant to make', async () => {
      expect(await requestOutcome(worker, subjects.billingRpc('grant'))).toBe('refused');
      expect(await requestOutcome(gateway, subjects.billingRpc('grant'))).toBe('refused');
      expect(await requestOutcome(operator, subjects.jobsRpc('create'))).toBe('refused');
      expect(await requestOutcome(operator, subjects.billingRpc('price_list'))).toBe('refused');
      expect(await requestOutcome(billing, subjects.jobsRpc('cancel'))).toBe('refused');
      expect(await requestOutcome(worker, subjects.jobsRpc('cancel'))).toBe('refused');
      expect(await requestOutcome(webhooks, subjects.jobsRpc('create'))).toBe('refused');
      expect(await requestOutcome(webhooks, subjects.billingRpc('price_list'))).toBe('refused');
      expect(await requestOutcome(operator, subjects.webhooksRpc('create_endpoint'))).toBe('refused');
      expect(await requestOutcome(worker, subjects.webhooksRpc('list_endpoints'))).toBe('refused');
      expect(await requestOutcome(jobs, subjects.webhooksRpc('list_deliveries'))).toBe('refused');
    });

    it('refuses publishing into a stream another service owns', async () => {
      const before = (await (await jobs.jetstreamManager()).streams.info(STREAMS.work)).state.messages;
      await expect(gateway.jetstream().publish(subjects.work('clean-audio-video'), data)).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
      await expect(worker.jetstream().publish(subjects.jobEvent('completed'), data)).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
      await expect(billing.jetstream().publish(subjects.report('succeeded'), data)).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
      await expect(jobs.jetstream().publish(subjects.billingEvent('charge_captured'), data)).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
      await expect(webhooks.jetstream().publish(subjects.jobEvent('completed'), data)).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
      await expect(webhooks.jetstream().publish(subjects.jobUpdate('b1c7c7b0-0000-4000-8000-000000000000'), data)).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
      expect((await (await jobs.jetstreamManager()).streams.info(STREAMS.work)).state.messages).toBe(before);
    });

    it('refuses listening in on requests, and JetStream calls outside a service own consumers', async () => {
      expect(await subscribeOutcome(gateway, subjects.jobsRpc('create'), queueGroups.jobsRpc())).toBe('refused');
      expect(await subscribeOutcome(worker, subjects.billingRpc('grant'))).toBe('refused');
      expect(await subscribeOutcome(operator, subjects.billingEventAll())).toBe('refused');
      expect(await subscribeOutcome(billing, subjects.workAll())).toBe('refused');
      expect(await subscribeOutcome(gateway, subjects.webhooksRpc('create_endpoint'), queueGroups.webhooksRpc())).toBe('refused');
      expect(await subscribeOutcome(webhooks, subjects.jobsRpc('get'), queueGroups.jobsRpc())).toBe('refused');
      // The webhook delivery service pulling billing's consumer of the same stream.
      expect(await requestOutcome(webhooks, `$JS.API.CONSUMER.MSG.NEXT.${STREAMS.jobEvents}.${CONSUMERS.billingJobEvents}`)).toBe('refused');
      // billing pulling the render workers' queue, or deleting a stream.
      expect(await requestOutcome(billing, `$JS.API.CONSUMER.MSG.NEXT.${STREAMS.work}.${CONSUMERS.renderWorker}`)).toBe('refused');
      expect(await requestOutcome(worker, `$JS.API.STREAM.DELETE.${STREAMS.work}`)).toBe('refused');
      expect(await requestOutcome(gateway, '$JS.API.INFO')).toBe('refused');
      // The gateway reads one job's updates by sequence, and no other stream.
      expect(await requestOutcome(gateway, `$JS.API.STREAM.MSG.GET.${STREAMS.jobUpdates}`)).toBe('answered');
      expect(await requestOutcome(gateway, `$JS.API.STREAM.MSG.GET.${STREAMS.jobEvents}`)).toBe('refused');
      expect(await subscribeOutcome(gateway, subjects.jobUpdate('b1c7c7b0-0000-4000-8000-000000000000'))).toBe('subscribed');
      expect(await subscribeOutcome(gateway, subjects.jobEventAll())).toBe('refused');
    });

    it('carries work, reports and events between the services that own them', async () => {
      await jobs.jetstream().publish(subjects.work('clean-audio-video'), data, { msgID: 'job-1' });
      const work = await pullOne(worker, STREAMS.work, CONSUMERS.renderWorker);
      expect(work.subject).toBe(subjects.work('clean-audio-video'));
      work.working();
      await work.ackAck();

      await worker.jetstream().publish(subjects.report('succeeded'), data, { msgID: 'job-1.succeeded' });
      const report = await pullOne(jobs, STREAMS.reports, CONSUMERS.jobsReports);
      expect(await report.ackAck()).toBe(true);

      await jobs.jetstream().publish(subjects.jobEvent('created'), data, { msgID: 'job-1.created' });
      const event = await pullOne(billing, STREAMS.jobEvents, CONSUMERS.billingJobEvents);
      event.nak(10);
      expect(await (await pullOne(billing, STREAMS.jobEvents, CONSUMERS.billingJobEvents)).ackAck()).toBe(true);
      // The same event, and a worker's progress update, reach the webhook delivery service's consumers.
      expect(await (await pullOne(webhooks, STREAMS.jobEvents, CONSUMERS.webhooksJobEvents)).ackAck()).toBe(true);
      await worker.jetstream().publish(subjects.jobUpdate('b1c7c7b0-0000-4000-8000-000000000001'), data);
      expect(await (await pullOne(webhooks, STREAMS.jobUpdates, CONSUMERS.webhooksJobUpdates)).ackAck()).toBe(true);

      await billing.jetstream().publish(subjects.billingEvent('hold_placed'), data, { msgID: 'job-1.hold_placed' });
      const billingEvent = await pullOne(jobs, STREAMS.billingEvents, CONSUMERS.jobsBillingEvents);
      billingEvent.term();
      await jobs.flush();
    });

    it('lets the worker hear the job events that end a job', async () => {
      const heard = new Promise<string>((resolve) => worker.subscribe(subjects.jobEvent('cancelled'), { callback: (_e, msg) => resolve(msg.subject) }));
      await worker.flush();
      await jobs.jetstream().publish(subjects.jobEvent('cancelled'), data, { msgID: 'job-2.cancelled' });
      expect(await heard).toBe(subjects.jobEvent('cancelled'));
    });

    it('hands a work message that reached max deliveries to the jobs service, which reads and deletes it', async () => {
      const jsm = await jobs.jetstreamManager();
      const advisory = new Promise<{ stream_seq: number }>((resolve) =>
        jobs.subscribe(subjects.maxDeliveriesAdvisory(STREAMS.work, CONSUMERS.renderWorker), {
          queue: queueGroups.deadLetters(CONSUMERS.renderWorker),
          callback: (_error, msg) => resolve(msg.json<{ stream_seq: number }>()),
        }),
      );
      await jobs.flush();
      await jobs.jetstream().publish(subjects.work('video-background-removal'), data, { msgID: 'job-3' });
      // The worker "dies": no ack, and the consumer allows one delivery. JetStream gives up on the
      // message when it would deliver it again, that is on the next pull of a worker still running.
      await pullOne(worker, STREAMS.work, CONSUMERS.renderWorker);
      const nextPull = await (await worker.jetstream().consumers.get(STREAMS.work, CONSUMERS.renderWorker)).fetch({ max_messages: 1, expires: 5_000 });
      const pulled: string[] = [];
      const pulling = (async () => {
        for await (const msg of nextPull) pulled.push(msg.subject);
      })();
      const { stream_seq } = await advisory;
      nextPull.stop();
      await pulling;
      expect(pulled).toEqual([]);
      const stored = await jsm.streams.getMessage(STREAMS.work, { seq: stream_seq });
      expect(stored.subject).toBe(subjects.work('video-background-removal'));
      expect(await jsm.streams.deleteMessage(STREAMS.work, stream_seq, false)).toBe(true);
      // The same advisory is not the worker's to watch (advisoryDeadLetters: false).
      expect(await subscribeOutcome(worker, subjects.maxDeliveriesAdvisory(STREAMS.work, CONSUMERS.renderWorker))).toBe('refused');
    });
  });
});
