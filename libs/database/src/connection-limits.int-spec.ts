import { createDatabase } from '@vj/local-stack';
import { DataSource } from 'typeorm';
import { CONNECTION_LIMITS } from './connection-limits';

describe('CONNECTION_LIMITS', () => {
  it('reach the PostgreSQL session: an idle transaction is ended after a minute', async () => {
    const url = await createDatabase(process.env.TEST_DATABASE_ADMIN_URL!, 'connection_limits');
    const dataSource = await new DataSource({ type: 'postgres', url, ...CONNECTION_LIMITS }).initialize();
    try {
      expect(await dataSource.query('SHOW idle_in_transaction_session_timeout')).toEqual([{ idle_in_transaction_session_timeout: '1min' }]);
    } finally {
      await dataSource.destroy();
    }
  });
});
