// The service's parsed environment (webhooks.env.ts), for injection.
export const WEBHOOKS_CONFIG = Symbol('WebhooksConfig');
