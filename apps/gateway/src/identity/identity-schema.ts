// The PostgreSQL schema the gateway owns (docs/architecture.md): accounts and API keys.
export const IDENTITY_SCHEMA = 'identity';
