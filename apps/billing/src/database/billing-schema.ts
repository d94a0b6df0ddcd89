// Billing owns this PostgreSQL schema; no other service reads or writes it (decisions 0006).
export const BILLING_SCHEMA = 'billing';
