import type { DataSource } from 'typeorm';

// A service's readiness as far as its database goes: PostgreSQL answers a query now. An initialised
// data source alone says nothing while the server restarts. Rejects with the driver's error.
export async function answersQueries(dataSource: DataSource): Promise<boolean> {
  if (!dataSource.isInitialized) return false;
  await dataSource.query('SELECT 1');
  return true;
}
