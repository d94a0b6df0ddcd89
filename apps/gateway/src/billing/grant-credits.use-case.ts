import type { GrantCreditsReplyV1 } from '@vj/contracts';
import { checkedId, UnknownAccountError, type AccountsRepository } from '../identity';
import type { BillingPort } from './billing-port';

export interface GrantCreditsInput {
  accountId: string;
  amount: number;
  // The same key grants once, so an operator (or a script) can retry a grant that timed out.
  idempotencyKey: string;
}

// One use case behind every door that grants credits (the CLI today): billing keeps the balances but
// not the accounts, so the account is checked here, where accounts live.
export class GrantCreditsUseCase {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly billing: Pick<BillingPort, 'grant'>,
  ) {}

  async execute(input: GrantCreditsInput): Promise<GrantCreditsReplyV1> {
    const accountId = checkedId(input.accountId, UnknownAccountError, 'account');
    if (!(await this.accounts.exists(accountId))) throw new UnknownAccountError(`no account ${input.accountId}`);
    const { account_id, balance } = await this.billing.grant({
      version: 1,
      account_id: accountId,
      amount: input.amount,
      idempotency_key: input.idempotencyKey,
    });
    return { account_id, balance };
  }
}
