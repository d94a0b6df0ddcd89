// The identity feature's public surface: what other gateway folders may import (eslint.config.mjs
// enforces it). Accounts, keys and the gateway's own tables (the identity schema also holds the
// uploads and rate-limit buckets).
export { AccountKeysUseCase, InvalidKeyNameError } from './account-keys.use-case';
export { AccountsRepository } from './accounts.repository';
export { generateApiKey, hashApiKey } from './api-key';
export { AuthenticateApiKeyUseCase } from './authenticate-api-key.use-case';
export { CreateAccountUseCase, InvalidAccountNameError, type CreatedAccount } from './create-account.use-case';
export { EnsureDevAccountUseCase } from './ensure-dev-account.use-case';
export { createIdentityDataSource } from './identity-data-source';
export { UnknownAccountError, UnknownKeyError, checkedId } from './identity-errors';
export { IDENTITY_SCHEMA } from './identity-schema';
export { IdentityModule } from './identity.module';
export type { AccountLimitOverrides, Principal } from './principal';
export { runIdentityMigrations } from './run-identity-migrations';
export { SuspendAccountUseCase } from './suspend-account.use-case';
export { UploadEntity } from './upload.entity';
