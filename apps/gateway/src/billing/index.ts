// The billing feature's public surface: what other gateway folders may import (eslint.config.mjs
// enforces it).
export { BillingApiModule } from './billing-api.module';
export { renderEstimate, type EstimateBody } from './billing-bodies';
export { BILLING_PORT, BillingServiceError, type BillingPort, type BillingServiceErrorCode } from './billing-port';
export { CurrentPrices } from './current-prices';
export { GrantCreditsUseCase } from './grant-credits.use-case';
