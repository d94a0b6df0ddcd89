import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { GATEWAY_CONFIG } from '../config/gateway-config.token';
import type { GatewayConfig } from '../gateway.env';
import { AccountsRepository } from './accounts.repository';
import { AuthenticateApiKeyUseCase } from './authenticate-api-key.use-case';
import { IdentityChangeListener } from './identity-change-listener';
import { PrincipalCache } from './principal-cache';

// Accounts and API keys: who calls, with the cache of keys already checked, which the database's
// change notifications empty (identity-change-listener.ts).
@Module({
  providers: [
    { provide: AccountsRepository, useFactory: (dataSource: DataSource) => new AccountsRepository(dataSource), inject: [DataSource] },
    { provide: PrincipalCache, useFactory: (config: GatewayConfig) => new PrincipalCache(config.API_KEY_CACHE_SECONDS * 1000), inject: [GATEWAY_CONFIG] },
    {
      provide: IdentityChangeListener,
      useFactory: (config: GatewayConfig, principals: PrincipalCache) => new IdentityChangeListener(config.DATABASE_URL, principals),
      inject: [GATEWAY_CONFIG, PrincipalCache],
    },
    {
      provide: AuthenticateApiKeyUseCase,
      useFactory: (accounts: AccountsRepository, principals: PrincipalCache) => new AuthenticateApiKeyUseCase(accounts, principals),
      inject: [AccountsRepository, PrincipalCache],
    },
  ],
  exports: [AccountsRepository, AuthenticateApiKeyUseCase],
})
export class IdentityModule {}
