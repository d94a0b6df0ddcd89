// The webhooks feature's public surface: what other gateway folders may import (eslint.config.mjs
// enforces it).
export { WebhooksApiModule } from './webhooks-api.module';
export { WEBHOOKS_PORT, type WebhooksPort } from './webhooks-port';
