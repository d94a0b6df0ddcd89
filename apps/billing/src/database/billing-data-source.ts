import { CONNECTION_LIMITS } from '@vj/database';
import { DataSource } from 'typeorm';
import { AccountEntity } from './account.entity';
import { BILLING_SCHEMA } from './billing-schema';
import { JobBillingEntity } from './job-billing.entity';
import { LedgerEntryEntity } from './ledger-entry.entity';
import { outboxEntity } from '@vj/outbox';
import { CreateBilling1732400000000 } from './migrations/1732400000000-create-billing';
import { BillingOutbox1732800000000 } from './migrations/1732800000000-billing-outbox';
import { BillingOutboxContext1732900000000 } from './migrations/1732900000000-outbox-context';
import { PriceListEntity } from './price-list.entity';

export const BILLING_ENTITIES = [AccountEntity, LedgerEntryEntity, JobBillingEntity, PriceListEntity, outboxEntity(BILLING_SCHEMA)];

// Migrations only: the schema changes through reviewed migrations, never through synchronize.
export function createBillingDataSource(databaseUrl: string): DataSource {
  return new DataSource({
    type: 'postgres',
    url: databaseUrl,
    schema: BILLING_SCHEMA,
    entities: BILLING_ENTITIES,
    migrations: [CreateBilling1732400000000, BillingOutbox1732800000000, BillingOutboxContext1732900000000],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: 'vj-billing',
    ...CONNECTION_LIMITS,
  });
}
