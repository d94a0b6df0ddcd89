import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { startNatsServer, type LocalNatsServer } from './nats-server';
import { waitFor } from './wait-for';

// With a configuration of users (the local stack's), the server refuses anonymous clients, reads each
// password from its environment, and hands its errors to the log; without one it takes anyone.
describe('local nats-server', () => {
  let dir: string;
  let server: LocalNatsServer;
  const logged: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vj-nats-auth-'));
    const configFile = join(dir, 'nats.conf');
    const permissions = 'permissions: { publish: { allow: ["$JS.API.INFO", "allowed"] }, subscribe: { allow: ["_INBOX.>"] } }';
    writeFileSync(configFile, `jetstream: enabled\nauthorization { users: [ { user: "svc", password: $SVC_PASSWORD, ${permissions} } ] }\n`);
    server = await startNatsServer({
      auth: { configFile, env: { SVC_PASSWORD: 'sabc123' }, readyAs: { user: 'svc', pass: 'sabc123' } },
      log: (line) => logged.push(line),
    });
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a connection without a user and logs it', async () => {
    await expect(connect({ servers: server.url, timeout: 2_000 })).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
    await waitFor('the refusal in the log', async () => logged.some((line) => line.includes('authentication error')));
    expect(logged.join('\n')).not.toContain('Plaintext passwords');
  });

  it('lets the user in with its password, within its permissions only', async () => {
    const nc = await connect({ servers: server.url, user: 'svc', pass: 'sabc123' });
    try {
      await expect(nc.request('not-allowed', undefined, { timeout: 2_000 })).rejects.toMatchObject({ code: 'PERMISSIONS_VIOLATION' });
      await waitFor('the violation in the log', async () => logged.some((line) => line.includes('Publish Violation - User "svc", Subject "not-allowed"')));
    } finally {
      await nc.close();
    }
  });

  it('takes anyone without a configuration', async () => {
    const open = await startNatsServer();
    try {
      await (await connect({ servers: open.url })).close();
    } finally {
      await open.stop();
    }
  });
});
