// The webhooks service owns this PostgreSQL schema; no other service reads or writes it (decision 0006).
export const WEBHOOKS_SCHEMA = 'webhooks';
