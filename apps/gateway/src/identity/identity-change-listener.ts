import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import type { PrincipalCache } from './principal-cache';

// The channel the identity tables' triggers notify with the account id (migration 1732600000000).
export const IDENTITY_CHANGES_CHANNEL = 'vj_identity_changes';

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10_000;

// LISTENs for changes to keys and accounts on its own PostgreSQL connection and drops the changed
// account from the cache. The cache is live only while this listens; a lost connection turns it off
// until LISTEN succeeds again, retried with backoff.
export class IdentityChangeListener implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('IdentityChanges');
  private client?: Client;
  private stopped = false;
  private retryMs = RECONNECT_MIN_MS;
  private retryTimer?: NodeJS.Timeout;

  constructor(
    private readonly databaseUrl: string,
    private readonly cache: PrincipalCache,
  ) {}

  onModuleInit(): void {
    void this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.cache.setLive(false);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: 'vj-gateway-identity-changes' });
    this.client = client;
    let lost = false;
    const onLost = (reason: string) => {
      if (lost) return;
      lost = true;
      this.cache.setLive(false);
      client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn(`identity change listener lost (${reason}); API keys are read from the database until it is back`);
      this.retryTimer = setTimeout(() => void this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MAX_MS);
    };
    client.on('error', (error) => onLost(error.message));
    client.on('end', () => onLost('connection ended'));
    client.on('notification', (message) => {
      if (message.channel === IDENTITY_CHANGES_CHANNEL && message.payload) this.cache.forgetAccount(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${IDENTITY_CHANGES_CHANNEL}`);
      if (this.stopped || lost) return;
      this.retryMs = RECONNECT_MIN_MS;
      this.cache.setLive(true);
    } catch (error) {
      onLost(error instanceof Error ? error.message : String(error));
    }
  }
}
