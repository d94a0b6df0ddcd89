import { setTimeout as sleep } from 'node:timers/promises';
import type { SchemaId } from '@vj/http-contracts';
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

// Polls a job until it is final and, when COMPLETED, its charge is known: credits_charged follows
// COMPLETED once billing's charge reaches the jobs service (spec: "present once the final charge is known").
export async function waitForSettledJob<J extends { status: string; credits_charged?: number }>(api: ApiClient, path: string, schema: SchemaId, timeoutMs = 120_000): Promise<J> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await waitForFinalJob<J>(api, path, schema, Math.max(deadline - Date.now(), 0));
    if (job.status !== 'COMPLETED' || job.credits_charged !== undefined) return job;
    if (Date.now() > deadline) throw new Error(`${path} COMPLETED without credits_charged after ${timeoutMs} ms`);
    await sleep(250);
  }
}
