import { USAGE_GROUPS, type BalanceV1, type LedgerPageV1, type LedgerRequestV1, type UsageReportV1, type UsageRequestV1 } from '@vj/contracts';
import { RpcError } from '@vj/messaging';
import type { DataSource } from 'typeorm';
import { AccountEntity } from '../database/account.entity';
import { LedgerEntryEntity } from '../database/ledger-entry.entity';
import { isUuid } from '@vj/database';

const MAX_USAGE_RANGE_MS = 366 * 24 * 3600_000;

// Read side of the ledger: balance, usage and the entries themselves, for one account.
export class AccountReports {
  constructor(private readonly dataSource: DataSource) {}

  async balance(accountId: string): Promise<BalanceV1> {
    requireAccountId(accountId);
    const account = await this.dataSource.manager.findOneBy(AccountEntity, { account_id: accountId });
    const balance = account?.balance ?? 0;
    const held = account?.held ?? 0;
    return { account_id: accountId, balance, held, available: balance - held };
  }

  // Usage is what was charged: one charge entry per completed job, grouped by UTC day or job type.
  async usage(request: UsageRequestV1): Promise<UsageReportV1> {
    requireAccountId(request.account_id);
    const from = instant(request.from, 'from');
    const to = instant(request.to, 'to');
    if (from >= to) throw new RpcError('invalid_request', 'from must be before to');
    if (to.getTime() - from.getTime() > MAX_USAGE_RANGE_MS) throw new RpcError('invalid_request', 'from and to may be at most 366 days apart');
    if (!(USAGE_GROUPS as readonly string[]).includes(request.group_by)) throw new RpcError('invalid_request', `group_by must be one of ${USAGE_GROUPS.join(', ')}`);
    const key = request.group_by === 'day' ? `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')` : 'job_type';
    const rows: { key: string; jobs: string; billed_seconds: string; credits: string }[] = await this.dataSource.query(
      `SELECT ${key} AS key, count(*) AS jobs, coalesce(sum(billed_seconds), 0) AS billed_seconds, sum(credits) AS credits
         FROM billing.ledger_entry
        WHERE account_id = $1 AND kind = 'charge' AND created_at >= $2 AND created_at < $3
        GROUP BY 1 ORDER BY 1`,
      [request.account_id, from, to],
    );
    const report = rows.map((row) => ({ key: row.key, jobs: Number(row.jobs), billed_seconds: Number(row.billed_seconds), credits: Number(row.credits) }));
    const totals = report.reduce((sum, row) => ({ jobs: sum.jobs + row.jobs, billed_seconds: sum.billed_seconds + row.billed_seconds, credits: sum.credits + row.credits }), {
      jobs: 0,
      billed_seconds: 0,
      credits: 0,
    });
    return { account_id: request.account_id, from: from.toISOString(), to: to.toISOString(), group_by: request.group_by, rows: report, totals };
  }

  // Newest first; the cursor is the position of the last entry of the previous page.
  async ledger(request: LedgerRequestV1): Promise<LedgerPageV1> {
    requireAccountId(request.account_id);
    const limit = Math.min(Math.max(Math.trunc(request.limit) || 20, 1), 100);
    const before = request.cursor === undefined ? null : decodeCursor(request.cursor);
    const query = this.dataSource.manager
      .createQueryBuilder(LedgerEntryEntity, 'e')
      .where('e.account_id = :account', { account: request.account_id })
      .orderBy('e.seq', 'DESC')
      .take(limit + 1);
    if (before !== null) query.andWhere('e.seq < :before', { before });
    const entries = await query.getMany();
    const page = entries.slice(0, limit);
    const last = page[page.length - 1];
    return {
      entries: page.map((e) => ({
        entry_id: e.entry_id,
        kind: e.kind,
        credits: e.credits,
        job_id: e.job_id,
        job_type: e.job_type,
        balance_after: e.balance_after,
        held_after: e.held_after,
        created_at: e.created_at.toISOString(),
      })),
      next_cursor: entries.length > limit && last ? Buffer.from(`seq:${last.seq}`).toString('base64url') : null,
    };
  }
}

function requireAccountId(accountId: string): void {
  if (!isUuid(accountId)) throw new RpcError('invalid_request', 'account_id must be a UUID');
}

function instant(value: string, field: string): Date {
  const date = typeof value === 'string' ? new Date(value) : new Date(NaN);
  if (Number.isNaN(date.getTime())) throw new RpcError('invalid_request', `${field} must be an ISO 8601 date or date-time`);
  return date;
}

function decodeCursor(cursor: string): string {
  const match = /^seq:(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new RpcError('invalid_request', 'cursor is not valid');
  return match[1];
}
