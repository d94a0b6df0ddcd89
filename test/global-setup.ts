import { startPostgresCluster, type LocalPostgres } from '@vj/local-stack';

// One private PostgreSQL cluster for the whole run; each test file creates its own database in it.
// TEST_DATABASE_ADMIN_URL points the suite at an existing server instead.
export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_ADMIN_URL) return;
  const cluster = await startPostgresCluster();
  process.env.TEST_DATABASE_ADMIN_URL = cluster.adminUrl;
  (globalThis as { __vjPostgres?: LocalPostgres }).__vjPostgres = cluster;
}
