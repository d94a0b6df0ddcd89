import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { billingEnv } from './billing.env';
import { bootBilling } from './boot';

async function main(): Promise<void> {
  const billing = await bootBilling(billingEnv.parse(process.env));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    new Logger('billing').log(`${signal}: shutting down`);
    billing.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  new Logger('billing').fatal(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
