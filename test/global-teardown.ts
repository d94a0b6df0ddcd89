import type { LocalPostgres } from '@vj/local-stack';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __vjPostgres?: LocalPostgres }).__vjPostgres?.stop();
}
