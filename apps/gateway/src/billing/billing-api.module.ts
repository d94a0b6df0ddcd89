import { Module } from '@nestjs/common';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { BillingController } from './billing.controller';
import { CurrentPrices, PRICE_LIST_TTL_MS } from './current-prices';
import { ReadBillingService } from './read-billing.service';

// Balances, transactions and usage reports read from the billing service, and the price list that
// job quotes use.
@Module({
  controllers: [BillingController],
  providers: [
    { provide: PRICE_LIST_TTL_MS, useFactory: (config: GatewayConfig) => config.PRICE_LIST_CACHE_SECONDS * 1000, inject: [GATEWAY_CONFIG] },
    CurrentPrices,
    ReadBillingService,
  ],
  exports: [CurrentPrices],
})
export class BillingApiModule {}
