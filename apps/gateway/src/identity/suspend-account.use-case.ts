import type { CancelAccountJobsReplyV1 } from '@vj/contracts';
import type { AccountListing, AccountsRepository } from './accounts.repository';
import { checkedId, UnknownAccountError } from './identity-errors';

export interface AccountJobs {
  cancelAccount(request: { version: 1; account_id: string }): Promise<CancelAccountJobsReplyV1>;
}

// Suspending stops an account at once: its keys answer 401 from the next request on (every gateway
// reads them from the database), then every job it still has PROCESSING is cancelled, so billing
// releases the holds and charges nothing. Repeating it retries the cancellation (the jobs service
// may have been unreachable the first time).
export class SuspendAccountUseCase {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly jobs: AccountJobs,
  ) {}

  async suspend(accountId: string): Promise<AccountListing & { jobs_cancelled: number }> {
    const id = checkedId(accountId, UnknownAccountError, 'account');
    const account = await this.accounts.setSuspended(id, true, new Date());
    if (!account) throw new UnknownAccountError(`no account ${accountId}`);
    const { cancelled } = await this.jobs.cancelAccount({ version: 1, account_id: id });
    return { ...account, jobs_cancelled: cancelled };
  }
}
