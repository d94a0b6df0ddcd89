import { BillingServiceError, GrantCreditsUseCase } from '../billing';
import { JobsServiceError } from '../jobs';
import { AccountKeysUseCase, AuthenticateApiKeyUseCase, checkedId, CreateAccountUseCase, EnsureDevAccountUseCase, SuspendAccountUseCase, UnknownAccountError, type AccountsRepository, type CreatedAccount } from '../identity';
import { ServiceUnreachableError, type CliConnection } from './cli-connection';
import type { CliCommand } from './parse-cli-args';

// A key of the account's own: the retry GrantAfterCreateError suggests reuses it, so a grant that went
// through but timed out still counts once.
const startingCreditsKey = (accountId: string) => `account-create:${accountId}`;

// The commands that reach a service over NATS (the others need the database only).
export function needsServices(command: CliCommand): boolean {
  return (
    command.kind === 'credits-grant' ||
    command.kind === 'account-suspend' ||
    command.kind === 'dead-letters-list' ||
    command.kind === 'dead-letters-replay' ||
    (command.kind === 'account-create' && command.credits !== undefined)
  );
}

// The account exists and its key is in `account`, but its starting credits were not granted.
export class GrantAfterCreateError extends Error {
  constructor(
    readonly account: CreatedAccount,
    credits: number,
    cause: unknown,
  ) {
    const key = startingCreditsKey(account.account_id);
    super(
      `account ${account.account_id} was created but its ${credits} credits were not granted ` +
        `(${cause instanceof Error ? cause.message : String(cause)}); grant them with: ` +
        `npm run -s cli -- credits grant --account ${account.account_id} --amount ${credits} --idempotency-key ${key}`,
    );
  }
}

// What each operator command does; main.ts owns the process (environment, connections, output, exit code).
export async function runCliCommand(command: CliCommand, accounts: AccountsRepository, services?: CliConnection): Promise<unknown> {
  const createAccount = new CreateAccountUseCase(accounts);
  const keys = new AccountKeysUseCase(accounts);
  switch (command.kind) {
    case 'account-ensure-dev':
      return new EnsureDevAccountUseCase(createAccount, new AuthenticateApiKeyUseCase(accounts)).execute({ keyFile: command.keyFile });
    case 'account-show':
      return shownAccount(accounts, command.accountId);
    case 'account-limits': {
      await shownAccount(accounts, command.accountId);
      return accounts.setLimits(checkedId(command.accountId, UnknownAccountError, 'account'), command.changes);
    }
    case 'account-suspend':
      try {
        return await new SuspendAccountUseCase(accounts, connected(services).jobs).suspend(command.accountId);
      } catch (error) {
        if (!(error instanceof JobsServiceError)) throw error;
        throw new ServiceUnreachableError(
          `the account is suspended (its keys fail) but its jobs could not be cancelled (jobs service: ${error.message}); run the same command again`,
        );
      }
    case 'account-reinstate': {
      await shownAccount(accounts, command.accountId);
      return accounts.setSuspended(checkedId(command.accountId, UnknownAccountError, 'account'), false, new Date());
    }
    case 'keys-list':
      return keys.list(command.accountId);
    case 'keys-create':
      return keys.create(command.accountId, command.name);
    case 'keys-revoke':
      return keys.revoke(command.keyId);
    case 'dead-letters-list':
      return connected(services).deadLetters.list(command);
    case 'dead-letters-replay':
      return connected(services).deadLetters.replay(command.seq);
    case 'credits-grant':
      try {
        return await new GrantCreditsUseCase(accounts, connected(services).billing).execute(command);
      } catch (error) {
        // A timeout does not say whether billing applied the grant; the key makes the retry safe.
        if (!(error instanceof BillingServiceError && error.code === 'unavailable')) throw error;
        throw new ServiceUnreachableError(`billing did not answer (${error.message}); retry with --idempotency-key ${command.idempotencyKey} to grant at most once`);
      }
    case 'account-create': {
      if (command.credits === undefined) return createAccount.execute({ name: command.name });
      const connection = connected(services);
      // Checked first: with billing down the account would exist without its credits.
      if (!(await connection.isReady('billing'))) throw new ServiceUnreachableError('billing does not answer its health ping; no account was created');
      const account = await createAccount.execute({ name: command.name });
      try {
        await new GrantCreditsUseCase(accounts, connection.billing).execute({
          accountId: account.account_id,
          amount: command.credits,
          idempotencyKey: startingCreditsKey(account.account_id),
        });
      } catch (error) {
        throw new GrantAfterCreateError(account, command.credits, error);
      }
      return account;
    }
  }
}

async function shownAccount(accounts: AccountsRepository, accountId: string) {
  const account = await accounts.findAccount(checkedId(accountId, UnknownAccountError, 'account'));
  if (!account) throw new UnknownAccountError(`no account ${accountId}`);
  return account;
}

function connected(services: CliConnection | undefined): CliConnection {
  if (!services) throw new Error('this command needs the services connection (NATS_URL)');
  return services;
}
