import { JOB_TYPES } from '@vj/contracts';

// JSON Schemas of every other body the API sends (docs/spec/api-v1.md).

export const REQUEST_ERROR_CODES = [
  'invalid_request',
  'unauthenticated',
  'not_found',
  'conflict',
  'payload_too_large',
  'rate_limited',
  'internal',
  'unavailable',
] as const;
export type RequestErrorCode = (typeof REQUEST_ERROR_CODES)[number];

export const requestErrorSchema = {
  $id: 'RequestError',
  type: 'object',
  additionalProperties: false,
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string', enum: [...REQUEST_ERROR_CODES] },
        message: { type: 'string' },
        details: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'message'],
            properties: {
              type: { type: 'string' },
              message: { type: 'string' },
              field: { type: 'string' },
            },
          },
        },
      },
    },
  },
} as const;

// A page of a list endpoint: its items, newest first, and the cursor of the next page (null at the end).
export function pageSchema<Id extends string, Item extends object>(id: Id, items: Item) {
  return {
    $id: id,
    type: 'object',
    additionalProperties: false,
    required: ['data', 'next_cursor'],
    properties: {
      data: { type: 'array', items },
      next_cursor: { type: ['string', 'null'] },
    },
  } as const;
}

export const jobListSchema = pageSchema('JobList', {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'created_at', 'job'],
  properties: {
    type: { type: 'string', enum: [...JOB_TYPES] },
    created_at: { type: 'string', format: 'date-time' },
    // The job object, unchanged: validated against its type's schema by the caller.
    job: { type: 'object' },
  },
} as const);

export const healthSchema = {
  $id: 'Health',
  type: 'object',
  additionalProperties: false,
  required: ['status', 'checks'],
  properties: {
    status: { type: 'string', enum: ['ok', 'unavailable'] },
    checks: { type: 'object', additionalProperties: { type: 'string', enum: ['up', 'down'] } },
  },
} as const;
