import 'reflect-metadata';
import { ConfigError, databaseEnv, defineEnv, natsEnv } from '@vj/config';
import { BillingServiceError } from '../billing/billing-port';
import { UnknownAccountError } from '../billing/grant-credits.use-case';
import { AccountsRepository } from '../identity/accounts.repository';
import { InvalidAccountNameError } from '../identity/create-account.use-case';
import { createIdentityDataSource } from '../identity/identity-data-source';
import { runIdentityMigrations } from '../identity/run-identity-migrations';
import { BillingUnreachableError, connectCliBilling, type CliBilling } from './cli-billing';
import { parseCliArgs, USAGE, UsageError, type CliCommand } from './parse-cli-args';
import { GrantAfterCreateError, runCliCommand } from './run-cli-command';

// Operator CLI: exactly one JSON line on stdout, everything else on stderr. Exit 2: the command cannot
// work as given (usage, configuration, unknown account, refused by billing); 1: anything else.

interface CliEnv {
  DATABASE_URL: string;
  NATS_URL?: string;
}

// NATS_URL only for the commands that reach billing: the others work with the database alone.
function readEnv(command: CliCommand): CliEnv {
  const needsBilling = command.kind === 'credits-grant' || (command.kind === 'account-create' && command.credits !== undefined);
  return needsBilling ? defineEnv({ ...databaseEnv, ...natsEnv }).parse(process.env) : defineEnv(databaseEnv).parse(process.env);
}

async function run(command: CliCommand, env: CliEnv): Promise<unknown> {
  const dataSource = await createIdentityDataSource(env.DATABASE_URL).initialize();
  let billing: CliBilling | undefined;
  try {
    await runIdentityMigrations(dataSource);
    if (env.NATS_URL) billing = await connectCliBilling(env.NATS_URL);
    return await runCliCommand(command, new AccountsRepository(dataSource), billing);
  } finally {
    await billing?.close();
    await dataSource.destroy();
  }
}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (error instanceof GrantAfterCreateError) {
    // The key is shown once: print it even though the command failed.
    printJson(error.account);
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  if (error instanceof ConfigError || error instanceof InvalidAccountNameError || error instanceof UnknownAccountError) {
    process.stderr.write(`error: ${error.message}\n`);
    return 2;
  }
  if (error instanceof BillingUnreachableError) {
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  }
  if (error instanceof BillingServiceError) {
    process.stderr.write(`error: billing answered ${error.code}: ${error.message}\n`);
    // Its own failure is worth a retry; a refusal of the request is not.
    return error.code === 'internal' || error.code === 'unavailable' ? 1 : 2;
  }
  process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}

async function main(argv: string[]): Promise<number> {
  try {
    const command = parseCliArgs(argv);
    printJson(await run(command, readEnv(command)));
    return 0;
  } catch (error) {
    return exitCodeFor(error);
  }
}

void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
