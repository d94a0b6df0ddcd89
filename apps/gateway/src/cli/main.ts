import 'reflect-metadata';
import { ConfigError, databaseEnv, defineEnv } from '@vj/config';
import { AccountsRepository } from '../identity/accounts.repository';
import { AuthenticateApiKeyUseCase } from '../identity/authenticate-api-key.use-case';
import { CreateAccountUseCase, InvalidAccountNameError } from '../identity/create-account.use-case';
import { EnsureDevAccountUseCase } from '../identity/ensure-dev-account.use-case';
import { createIdentityDataSource } from '../identity/identity-data-source';
import { runIdentityMigrations } from '../identity/run-identity-migrations';
import { parseCliArgs, USAGE, UsageError, type CliCommand } from './parse-cli-args';

// Operator CLI: exactly one JSON line on stdout, everything else on stderr. Exit 2: bad invocation.

async function run(command: CliCommand, databaseUrl: string): Promise<unknown> {
  const dataSource = await createIdentityDataSource(databaseUrl).initialize();
  try {
    await runIdentityMigrations(dataSource);
    const accounts = new AccountsRepository(dataSource);
    const createAccount = new CreateAccountUseCase(accounts);
    if (command.kind === 'account-create') return await createAccount.execute({ name: command.name });
    return await new EnsureDevAccountUseCase(createAccount, new AuthenticateApiKeyUseCase(accounts)).execute({ keyFile: command.keyFile });
  } finally {
    await dataSource.destroy();
  }
}

async function main(argv: string[]): Promise<number> {
  try {
    const command = parseCliArgs(argv);
    const { DATABASE_URL } = defineEnv(databaseEnv).parse(process.env);
    process.stdout.write(`${JSON.stringify(await run(command, DATABASE_URL))}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof InvalidAccountNameError) {
      process.stderr.write(`error: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}

void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
