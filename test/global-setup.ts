import { startPostgresCluster, type LocalPostgres } from '@vj/local-stack';

// One private PostgreSQL cluster for the whole run; each test file creates its own database in it.
// TEST_DATABASE_ADMIN_URL points the suite at an existing server instead.
export default async function globalSetup(): Promise<void> {
  // Inherited by every test process: models opened inside jest's sandbox set it only in a copy of the
  // environment that ONNX Runtime never reads (onnx-segmenter.ts says why it is off).
  process.env.ORT_DISABLE_TELEMETRY = '1';
  if (process.env.TEST_DATABASE_ADMIN_URL) return;
  const cluster = await startPostgresCluster();
  process.env.TEST_DATABASE_ADMIN_URL = cluster.adminUrl;
  (globalThis as { __vjPostgres?: LocalPostgres }).__vjPostgres = cluster;
}
