import { databaseEnv, defineEnv, env, logEnv, natsEnv, observabilityEnv, type EnvValues } from '@vj/config';

export const billingEnv = defineEnv({
  ...natsEnv,
  ...databaseEnv,
  ...logEnv,
  ...observabilityEnv,
  BILLING_PRICES_FILE: env.string({
    doc: 'JSON file with the price list (README "Prices"); a change becomes a new price version at the next start. Unset: the built-in prices',
    optional: true,
  }),
});

export type BillingConfig = EnvValues<typeof billingEnv.variables>;
