import { STREAMS, subjects } from '@vj/contracts';
import { startNatsCluster, startNatsServer, waitFor, type LocalNatsCluster } from '@vj/local-stack';
import { connect, type NatsConnection } from 'nats';
import { JetStreamPublisher } from './jetstream-publisher';
import { ensureStreams, streamReplicas } from './streams';

describe('streams on a three-node JetStream cluster', () => {
  let cluster: LocalNatsCluster;
  let nc: NatsConnection;

  beforeAll(async () => {
    cluster = await startNatsCluster({ size: 3 });
    nc = await connect({ servers: cluster.servers, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
  }, 60_000);

  afterAll(async () => {
    await nc?.close();
    await cluster?.stop();
  });

  // Every service ensures the streams at boot: on a cluster some of those calls go unanswered a while.
  it('makes every stream R3 when four services ensure them at the same moment', async () => {
    const services = await Promise.all(cluster.servers.concat(cluster.servers[0]).map((url) => connect({ servers: url })));
    try {
      await Promise.all(services.map((service) => ensureStreams(service)));
      const jsm = await nc.jetstreamManager();
      for (const stream of Object.values(STREAMS)) expect((await jsm.streams.info(stream)).config.num_replicas).toBe(3);
    } finally {
      await Promise.all(services.map((service) => service.close()));
    }
  }, 120_000);

  it('makes every stream R3 on a cluster, never fewer afterwards, and R1 on a lone server', async () => {
    await ensureStreams(nc);
    const jsm = await nc.jetstreamManager();
    for (const stream of Object.values(STREAMS)) expect((await jsm.streams.info(stream)).config.num_replicas).toBe(3);
    // A service that asks for fewer (booting while a node is down) never shrinks them.
    await ensureStreams(jsm);
    for (const stream of Object.values(STREAMS)) expect((await jsm.streams.info(stream)).config.num_replicas).toBe(3);
    const lone = await startNatsServer();
    try {
      const alone = await connect({ servers: lone.url });
      expect(streamReplicas(alone)).toBe(1);
      await alone.close();
    } finally {
      await lone.stop();
    }
  });

  it('loses no message of a burst when a node is killed in the middle of it', async () => {
    await ensureStreams(nc);
    const jsm = await nc.jetstreamManager();
    await jsm.streams.purge(STREAMS.jobEvents);
    const publisher = new JetStreamPublisher(nc);
    const total = 300;
    // As the outbox relay does: a publish that failed is sent again with the same msgId until acked.
    const publish = async (i: number) => {
      for (;;) {
        try {
          return await publisher.publish(subjects.jobEvent('created'), { n: i }, { msgId: `burst-${i}` });
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    };
    // The node this connection is on: its publishes in flight fail, and it must move to another.
    const connected = cluster.nodes.find((node) => node.name === nc.info?.server_name)!;
    for (let i = 0; i < total; i++) {
      if (i === 100) await connected.kill();
      await publish(i);
    }
    expect(nc.info?.server_name).not.toBe(connected.name);
    await waitFor('every message in the stream', async () => (await jsm.streams.info(STREAMS.jobEvents)).state.messages === total, 30_000);
    expect((await jsm.streams.info(STREAMS.jobEvents)).state.messages).toBe(total);
  }, 120_000);
});
