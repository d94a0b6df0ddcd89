import { ESTIMATE_BASES, INT32_MAX, JOB_TYPES, LEDGER_ENTRY_KINDS, USAGE_GROUPS } from '@vj/contracts';
import { pageSchema } from './api-responses.schema';

// JSON Schemas of the billing bodies the API sends (docs/spec/api-v1.md, "Billing endpoints").

const credits = { type: 'integer', minimum: 0, maximum: INT32_MAX } as const;
const day = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;

export const estimateSchema = {
  $id: 'Estimate',
  type: 'object',
  additionalProperties: false,
  required: ['credits_estimated', 'duration_seconds', 'basis'],
  properties: {
    credits_estimated: credits,
    duration_seconds: { type: 'number', minimum: 0 },
    basis: { type: 'string', enum: [...ESTIMATE_BASES] },
  },
} as const;

export const balanceSchema = {
  $id: 'Balance',
  type: 'object',
  additionalProperties: false,
  required: ['account_id', 'balance', 'held', 'available'],
  properties: {
    account_id: { type: 'string', format: 'uuid' },
    balance: credits,
    held: credits,
    available: credits,
  },
} as const;

const usageFigures = {
  jobs: { type: 'integer', minimum: 0 },
  billed_seconds: { type: 'integer', minimum: 0 },
  credits,
} as const;

export const usageReportSchema = {
  $id: 'UsageReport',
  type: 'object',
  additionalProperties: false,
  required: ['account_id', 'from', 'to', 'group_by', 'rows', 'totals'],
  properties: {
    account_id: { type: 'string', format: 'uuid' },
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    group_by: { type: 'string', enum: [...USAGE_GROUPS] },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['jobs', 'billed_seconds', 'credits'],
        // Exactly one key column, after group_by.
        oneOf: [{ required: ['day'] }, { required: ['job_type'] }],
        properties: { day, job_type: { type: 'string', enum: [...JOB_TYPES] }, ...usageFigures },
      },
    },
    totals: { type: 'object', additionalProperties: false, required: ['jobs', 'billed_seconds', 'credits'], properties: usageFigures },
  },
} as const;

export const ledgerPageSchema = pageSchema('LedgerPage', {
  type: 'object',
  additionalProperties: false,
  required: ['entry_id', 'kind', 'credits', 'job_id', 'job_type', 'balance_after', 'held_after', 'created_at'],
  properties: {
    entry_id: { type: 'string', format: 'uuid' },
    kind: { type: 'string', enum: [...LEDGER_ENTRY_KINDS] },
    credits,
    job_id: { type: ['string', 'null'], format: 'uuid' },
    job_type: { type: ['string', 'null'], enum: [...JOB_TYPES, null] },
    balance_after: credits,
    held_after: credits,
    created_at: { type: 'string', format: 'date-time' },
  },
} as const);
