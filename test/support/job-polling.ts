import { setTimeout as sleep } from 'node:timers/promises';
import type { SchemaId } from '@vj/contracts';
import type { ApiClient } from './api-client';

// Polls a job until it leaves PROCESSING.
export async function waitForFinalJob<J extends { status: string }>(api: ApiClient, path: string, schema: SchemaId, timeoutMs = 120_000): Promise<J> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await api.request<J>('GET', path, schema);
    if (status !== 200) throw new Error(`GET ${path} answered ${status}`);
    if (body.status !== 'PROCESSING') return body;
    if (Date.now() > deadline) throw new Error(`${path} still PROCESSING after ${timeoutMs} ms`);
    await sleep(250);
  }
}
