import 'reflect-metadata';
import { ConfigError, databaseEnv, defineEnv, natsEnv } from '@vj/config';
import { BillingServiceError } from '../billing';
import { AccountsRepository, createIdentityDataSource, InvalidAccountNameError, InvalidKeyNameError, runIdentityMigrations, UnknownAccountError, UnknownKeyError } from '../identity';
import { connectCli, ServiceUnreachableError, type CliConnection } from './cli-connection';
import { UnknownDeadLetterError, UnreplayableDeadLetterError } from './dead-letters';
import { parseCliArgs, USAGE, UsageError, type CliCommand } from './parse-cli-args';
import { GrantAfterCreateError, needsServices, runCliCommand } from './run-cli-command';

// Operator CLI: exactly one JSON line on stdout, everything else on stderr. Exit 2: the command cannot
// work as given (usage, configuration, unknown account or key, refused by billing); 1: anything else.

interface CliEnv {
  DATABASE_URL: string;
  NATS_URL?: string;
}

// NATS_URL only for the commands that reach a service: the others work with the database alone.
function readEnv(command: CliCommand): CliEnv {
  return needsServices(command) ? defineEnv({ ...databaseEnv, ...natsEnv }).parse(process.env) : defineEnv(databaseEnv).parse(process.env);
}

async function run(command: CliCommand, env: CliEnv): Promise<unknown> {
  const dataSource = await createIdentityDataSource(env.DATABASE_URL).initialize();
  let services: CliConnection | undefined;
  try {
    await runIdentityMigrations(dataSource);
    if (env.NATS_URL) services = await connectCli(env.NATS_URL);
    return await runCliCommand(command, new AccountsRepository(dataSource), services);
  } finally {
    await services?.close();
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
  if (
    error instanceof ConfigError ||
    error instanceof InvalidAccountNameError ||
    error instanceof InvalidKeyNameError ||
    error instanceof UnknownAccountError ||
    error instanceof UnknownKeyError ||
    error instanceof UnknownDeadLetterError ||
    error instanceof UnreplayableDeadLetterError
  ) {
    process.stderr.write(`error: ${error.message}\n`);
    return 2;
  }
  if (error instanceof ServiceUnreachableError) {
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
