import { Client } from 'pg';
import { databaseUrl, socketUrl, startPostgresCluster, type LocalPostgres } from './postgres-cluster';

describe('startPostgresCluster', () => {
  let pg: LocalPostgres;

  beforeAll(async () => {
    pg = await startPostgresCluster();
  });

  afterAll(() => pg?.stop());

  async function clientAddress(url: string): Promise<string | null> {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      return ((await client.query('SELECT inet_client_addr()::text AS address')).rows[0] as { address: string | null }).address;
    } finally {
      await client.end();
    }
  }

  it('is reached over TCP at adminUrl and through its Unix socket at localUrl, a database of it too', async () => {
    expect(await clientAddress(pg.adminUrl)).toBe('127.0.0.1/32');
    expect(pg.localUrl).not.toBe(pg.adminUrl);
    // A socket connection has no client address.
    expect(await clientAddress(pg.localUrl)).toBeNull();
    expect(await clientAddress(databaseUrl(pg.localUrl, 'postgres'))).toBeNull();
  });
});

describe('socketUrl', () => {
  it('names the socket folder and port, or nothing when the socket path would not fit', () => {
    expect(socketUrl('/tmp/vj-pg-abc', 5433)).toBe('postgres://postgres@localhost:5433/postgres?host=%2Ftmp%2Fvj-pg-abc');
    expect(socketUrl(`/tmp/${'x'.repeat(100)}`, 5433)).toBeNull();
  });
});
