import { BillingServiceError } from '../billing/billing-port';
import { GrantCreditsUseCase } from '../billing/grant-credits.use-case';
import type { AccountsRepository } from '../identity/accounts.repository';
import { AuthenticateApiKeyUseCase } from '../identity/authenticate-api-key.use-case';
import { CreateAccountUseCase, type CreatedAccount } from '../identity/create-account.use-case';
import { EnsureDevAccountUseCase } from '../identity/ensure-dev-account.use-case';
import { BillingUnreachableError, type CliBilling } from './cli-billing';
import type { CliCommand } from './parse-cli-args';

// A key of the account's own: the retry GrantAfterCreateError suggests reuses it, so a grant that went
// through but timed out still counts once.
const startingCreditsKey = (accountId: string) => `account-create:${accountId}`;

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
export async function runCliCommand(command: CliCommand, accounts: AccountsRepository, billing?: CliBilling): Promise<unknown> {
  const createAccount = new CreateAccountUseCase(accounts);
  switch (command.kind) {
    case 'account-ensure-dev':
      return new EnsureDevAccountUseCase(createAccount, new AuthenticateApiKeyUseCase(accounts)).execute({ keyFile: command.keyFile });
    case 'credits-grant':
      try {
        return await new GrantCreditsUseCase(accounts, requireBilling(billing).port).execute(command);
      } catch (error) {
        // A timeout does not say whether billing applied the grant; the key makes the retry safe.
        if (!(error instanceof BillingServiceError && error.code === 'unavailable')) throw error;
        throw new BillingUnreachableError(`billing did not answer (${error.message}); retry with --idempotency-key ${command.idempotencyKey} to grant at most once`);
      }
    case 'account-create': {
      if (command.credits === undefined) return createAccount.execute({ name: command.name });
      const connected = requireBilling(billing);
      // Checked first: with billing down the account would exist without its credits.
      if (!(await connected.isReady())) throw new BillingUnreachableError('billing does not answer its health ping; no account was created');
      const account = await createAccount.execute({ name: command.name });
      try {
        await new GrantCreditsUseCase(accounts, connected.port).execute({
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

function requireBilling(billing: CliBilling | undefined): CliBilling {
  if (!billing) throw new Error('this command needs the billing connection (NATS_URL)');
  return billing;
}
