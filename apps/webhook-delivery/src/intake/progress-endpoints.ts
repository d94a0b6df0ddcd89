import { LRUCache } from 'lru-cache';
import { IsNull, type DataSource } from 'typeorm';
import { WebhookEndpointEntity } from '../database/webhook-endpoint.entity';

// How long an account's answer is kept. An endpoint added on another instance starts to get progress
// this much later at most; one deleted or disabled meanwhile gets none (the dispatcher gives up its
// deliveries). Progress is a live signal, at most one a second per running job (decision 0062).
export const PROGRESS_ENDPOINTS_TTL_MS = 5_000;
// Accounts with jobs running at once on a busy platform; an entry is an id list, usually empty.
const MAX_ACCOUNTS = 50_000;

// Which of an account's own endpoints opted in to job.progress, read once per account and kept for a
// few seconds, where every progress update of every running job read them: most accounts have none,
// and a thousand running jobs send a thousand updates a second. Concurrent reads of one account share
// one query. A change made through this instance clears the account at once (forget).
export class ProgressEndpoints {
  private readonly endpoints: LRUCache<string, string[]>;

  constructor(
    private readonly dataSource: DataSource,
    ttlMs = PROGRESS_ENDPOINTS_TTL_MS,
    clock: { now(): number } = performance,
  ) {
    this.endpoints = new LRUCache<string, string[]>({
      max: MAX_ACCOUNTS,
      ttl: ttlMs,
      ttlResolution: 0,
      perf: clock,
      fetchMethod: (accountId) => this.read(accountId),
    });
  }

  async of(accountId: string): Promise<string[]> {
    return (await this.endpoints.fetch(accountId)) ?? [];
  }

  forget(accountId: string): void {
    this.endpoints.delete(accountId);
  }

  // A job's own endpoint (a create's webhook_url) takes the default events, never progress.
  private async read(accountId: string): Promise<string[]> {
    const rows = await this.dataSource.manager.find(WebhookEndpointEntity, {
      select: { endpoint_id: true, events: true },
      where: { account_id: accountId, job_id: IsNull(), deleted_at: IsNull(), disabled_at: IsNull() },
    });
    return rows.filter((row) => row.events.includes('job.progress')).map((row) => row.endpoint_id);
  }
}
