import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { BalanceV1 } from '@vj/contracts';
import { PageQuery } from '@vj/http-contracts';
import { AccountId } from '../auth/account-id.decorator';
import type { HttpResponse } from '../http/http-types';
import { ApiBody, ApiRequestErrors, schemaRef, Operation } from '../http/openapi-responses';
import { renderUsageReport, type LedgerPageBody, type UsageReportBody } from './billing-bodies';
import { PrefersCsv } from './prefers-csv.decorator';
import { ReadBillingService } from './read-billing.service';
import { CSV_CONTENT_TYPE, usageCsv } from './usage-csv';
import { UsageQuery } from './usage.query';

@ApiTags('billing')
@ApiBearerAuth()
@ApiRequestErrors(401, 503)
@Controller('v1/billing')
export class BillingController {
  constructor(private readonly billing: ReadBillingService) {}

  @Operation('getBalance', 'Get the account balance')
  @Get('balance')
  @ApiBody(200, 'Balance', 'credits: balance, held for jobs not yet finished, available = balance - held')
  balance(@AccountId() accountId: string): Promise<BalanceV1> {
    return this.billing.balance(accountId);
  }

  @Operation('getUsage', 'Get charged usage by day or job type', 'JSON, or CSV when Accept prefers text/csv.')
  @Get('usage')
  @ApiProduces('application/json', 'text/csv')
  @ApiResponse({
    status: 200,
    description: 'charged jobs per UTC day or job type, with totals; CSV when Accept prefers text/csv (header, rows, then a total line)',
    content: { 'application/json': { schema: schemaRef('UsageReport') }, 'text/csv': { schema: { type: 'string' } } },
  })
  @ApiRequestErrors(422)
  async usage(
    @AccountId() accountId: string,
    @Query() query: UsageQuery,
    @PrefersCsv() csv: boolean,
    @Res({ passthrough: true }) res: HttpResponse,
  ): Promise<UsageReportBody | string> {
    const report = await this.billing.usage(accountId, query);
    // The same URL answers in two formats: caches must key on Accept.
    res.setHeader('Vary', 'Accept');
    if (!csv) return renderUsageReport(report);
    res.setHeader('Content-Type', CSV_CONTENT_TYPE);
    return usageCsv(report);
  }

  @Operation('listLedgerEntries', 'List ledger entries', 'Holds, charges, releases and grants, newest first.')
  @Get('ledger')
  @ApiBody(200, 'LedgerPage', 'ledger entries, newest first')
  @ApiRequestErrors(422)
  ledger(@AccountId() accountId: string, @Query() query: PageQuery): Promise<LedgerPageBody> {
    return this.billing.ledger(accountId, query);
  }
}
