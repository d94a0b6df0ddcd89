import { PROGRESS_STAGES, WEBHOOK_DELIVERY_STATES, WEBHOOK_EVENT_TYPES } from '@vj/contracts';

// JSON Schemas of the bodies of /v1/webhook-endpoints and /v1/webhook-secret (webhook-types.ts).

const endpointProperties = {
  id: { type: 'string', format: 'uuid' },
  url: { type: 'string' },
  events: { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] }, minItems: 1 },
  job_id: { type: ['string', 'null'], format: 'uuid' },
  enabled: { type: 'boolean' },
  disabled_reason: { type: ['string', 'null'] },
  created_at: { type: 'string', format: 'date-time' },
  previous_secret_expires_at: { type: ['string', 'null'], format: 'date-time' },
} as const;
const endpointRequired = ['id', 'url', 'events', 'job_id', 'enabled', 'disabled_reason', 'created_at', 'previous_secret_expires_at'] as const;
const secretProperty = { type: 'string', pattern: '^whsec_[A-Za-z0-9+/=]+$' } as const;

export const webhookEndpointSchema = {
  $id: 'WebhookEndpoint',
  type: 'object',
  additionalProperties: false,
  required: [...endpointRequired],
  properties: endpointProperties,
} as const;

export const webhookEndpointWithSecretSchema = {
  $id: 'WebhookEndpointWithSecret',
  type: 'object',
  additionalProperties: false,
  required: [...endpointRequired, 'secret'],
  properties: { ...endpointProperties, secret: secretProperty },
} as const;

export const webhookEndpointListSchema = {
  $id: 'WebhookEndpointList',
  type: 'object',
  additionalProperties: false,
  required: ['data'],
  properties: { data: { type: 'array', items: { $ref: 'WebhookEndpoint' } } },
} as const;

export const webhookDeliverySchema = {
  $id: 'WebhookDelivery',
  type: 'object',
  additionalProperties: false,
  required: ['id', 'endpoint_id', 'event_type', 'job_id', 'state', 'attempts', 'next_attempt_at', 'created_at'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    endpoint_id: { type: 'string', format: 'uuid' },
    event_type: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
    job_id: { type: 'string', format: 'uuid' },
    state: { type: 'string', enum: [...WEBHOOK_DELIVERY_STATES] },
    attempts: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['attempted_at', 'status_code', 'error', 'duration_ms', 'response_body'],
        properties: {
          attempted_at: { type: 'string', format: 'date-time' },
          status_code: { type: ['integer', 'null'] },
          error: { type: ['string', 'null'] },
          duration_ms: { type: 'integer', minimum: 0 },
          response_body: { type: 'string', maxLength: 1024 },
        },
      },
    },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    created_at: { type: 'string', format: 'date-time' },
  },
} as const;

export const webhookDeliveryPageSchema = {
  $id: 'WebhookDeliveryPage',
  type: 'object',
  additionalProperties: false,
  required: ['data', 'next_cursor'],
  properties: {
    data: { type: 'array', items: { $ref: 'WebhookDelivery' } },
    next_cursor: { type: ['string', 'null'] },
  },
} as const;

export const webhookDefaultSecretSchema = {
  $id: 'WebhookDefaultSecret',
  type: 'object',
  additionalProperties: false,
  required: ['secret', 'previous_secret_expires_at'],
  properties: { secret: secretProperty, previous_secret_expires_at: { type: ['string', 'null'], format: 'date-time' } },
} as const;

// The body every delivery POSTs (WebhookPayload in webhook-types.ts): `job` is a job object exactly as
// GET answers it, so it is checked against the job schemas themselves.
export const webhookPayloadSchema = {
  $id: 'WebhookPayload',
  type: 'object',
  additionalProperties: false,
  required: ['type', 'timestamp', 'data'],
  properties: {
    type: { type: 'string', enum: [...WEBHOOK_EVENT_TYPES] },
    timestamp: { type: 'string', format: 'date-time' },
    data: {
      type: 'object',
      additionalProperties: false,
      required: ['job'],
      properties: {
        job: { anyOf: [{ $ref: 'CleanAudioVideoJob' }, { $ref: 'VideoBackgroundRemovalJob' }] },
        progress: {
          type: 'object',
          additionalProperties: false,
          required: ['stage', 'progress', 'attempt'],
          properties: {
            stage: { type: 'string', enum: [...PROGRESS_STAGES] },
            progress: { type: 'number', minimum: 0, maximum: 1 },
            attempt: { type: 'integer', minimum: 1 },
          },
        },
      },
    },
  },
} as const;
