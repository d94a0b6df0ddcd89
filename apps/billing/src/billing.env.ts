import { defineEnv, logEnv, natsEnv, type EnvValues } from '@vj/config';

export const billingEnv = defineEnv({
  ...natsEnv,
  ...logEnv,
});

export type BillingConfig = EnvValues<typeof billingEnv.variables>;
