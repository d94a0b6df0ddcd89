import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { startNatsCluster, type LocalNatsCluster } from './nats-cluster';
import { waitFor } from './wait-for';

// The local stack's cluster (natsNodes: 3): every node has the users of the configuration, a client
// given one node's URL learns the others from its INFO and moves on when that node dies, and a node
// killed and restarted on its ports and store is back in the cluster.
describe('local nats cluster with users', () => {
  let dir: string;
  let cluster: LocalNatsCluster;
  const svc = { user: 'svc', pass: 'sabc123' };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vj-nats-cluster-auth-'));
    const configFile = join(dir, 'nats.conf');
    const permissions = 'permissions: { publish: { allow: ["$JS.API.>"] }, subscribe: { allow: ["_INBOX.>"] } }';
    writeFileSync(configFile, `jetstream: enabled\nauthorization { users: [ { user: "svc", password: $SVC_PASSWORD, ${permissions} } ] }\n`);
    cluster = await startNatsCluster({ size: 3, storeDir: join(dir, 'nats'), auth: { configFile, env: { SVC_PASSWORD: svc.pass }, readyAs: svc } });
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a connection without a user on every node', async () => {
    for (const url of cluster.servers) await expect(connect({ servers: url, timeout: 2_000 })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
  });

  it('moves a client given only node 1 to another node when node 1 is killed, and takes node 1 back', async () => {
    const [first] = cluster.nodes;
    let nc: NatsConnection | undefined;
    try {
      nc = await connect({ servers: first.url, ...svc, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
      expect(nc.info?.server_name).toBe(first.name);
      expect(nc.info?.connect_urls).toHaveLength(3);
      await first.kill();
      const moved = nc;
      await waitFor('the client on another node', async () => !moved.isClosed() && moved.info?.server_name !== first.name, 15_000);
      // Once the other two have a meta leader (a new one when node 1 led). The election waits out
      // node 1's missed heartbeats first, which takes far longer on a loaded machine (two test files
      // run at a time), so the wait is generous: the claim is that JetStream comes back, not how fast.
      const jsm = await nc.jetstreamManager({ checkAPI: false });
      await waitFor('JetStream through another node', async () => Boolean(await jsm.getAccountInfo()), 60_000, 250);
      await first.restart();
      const back = await connect({ servers: first.url, ...svc });
      expect(back.info?.server_name).toBe(first.name);
      await back.close();
    } finally {
      await nc?.close();
    }
  }, 120_000);
});
