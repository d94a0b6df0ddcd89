import type { WebhooksRpcMethod } from '../messaging/names';

// Webhooks (decision 0032): the REST shapes of /v1/webhook-endpoints and the RPC catalogue
// the gateway calls on the webhook delivery service (vj.rpc.webhooks.v1.*).

// What an endpoint may subscribe to; job.progress is opt-in (not in the default set).
export const WEBHOOK_EVENT_TYPES = ['job.started', 'job.progress', 'job.completed', 'job.failed', 'job.cancelled'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEventType[] = ['job.started', 'job.completed', 'job.failed', 'job.cancelled'];

// How long a rotated-out secret keeps signing beside the new one, when the rotation does not say.
export const WEBHOOK_GRACE_SECONDS_DEFAULT = 24 * 3600;
// A week: long enough for any receiver's deploy cycle, short enough that a leaked secret dies.
export const WEBHOOK_GRACE_SECONDS_MAX = 7 * 24 * 3600;

// GET /v1/webhook-endpoints (never with a secret).
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  // Set for the endpoint a create's webhook_url made: it serves that job only.
  job_id: string | null;
  // False once a receiver answered 410 Gone, or its owner disabled it; disabled_reason says which.
  enabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  // During a rotation's grace, when the previous secret stops signing.
  previous_secret_expires_at: string | null;
}

// POST /v1/webhook-endpoints and POST .../rotate-secret: the secret, shown this once.
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: string;
}

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed', 'given_up'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

export interface WebhookAttempt {
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  // The start of the receiver's answer (at most 1 kB).
  response_body: string;
}

// GET /v1/webhook-endpoints/{id}/deliveries: every delivery with its attempts, newest first.
export interface WebhookDelivery {
  id: string;
  endpoint_id: string;
  event_type: WebhookEventType;
  job_id: string;
  state: WebhookDeliveryState;
  attempts: WebhookAttempt[];
  next_attempt_at: string | null;
  created_at: string;
}

// What a job.progress delivery adds beside the job: the same figures as the SSE stream's progress.
export interface WebhookProgress {
  stage: string;
  progress: number;
  attempt: number;
}

// The body every delivery POSTs: the job exactly as GET /v1/{type}/{job_id} returns it (and, for
// job.progress, where the work is).
export interface WebhookPayload<Job = unknown> {
  type: WebhookEventType;
  timestamp: string;
  data: { job: Job; progress?: WebhookProgress };
}

// GET /v1/webhook-secret and POST /v1/webhook-secret/rotate: the account's default secret, which signs
// the deliveries of a create's webhook_url.
export interface WebhookDefaultSecret {
  secret: string;
  previous_secret_expires_at: string | null;
}

export interface WebhookEndpointPage {
  data: WebhookEndpoint[];
}

export interface WebhookDeliveryPage {
  data: WebhookDelivery[];
  next_cursor: string | null;
}

// The RPC catalogue (every request names its account: an endpoint of another account is not_found).
export interface AccountScopedV1 {
  version: 1;
  account_id: string;
}
// Without job_id, the account's own endpoints; with it, the endpoint that job's webhook_url made.
export interface ListWebhookEndpointsRequestV1 extends AccountScopedV1 {
  job_id?: string;
}
export interface CreateWebhookEndpointRequestV1 extends AccountScopedV1 {
  url: string;
  events: WebhookEventType[];
}
export interface WebhookEndpointRequestV1 extends AccountScopedV1 {
  endpoint_id: string;
}
export interface RotateWebhookSecretRequestV1 extends AccountScopedV1 {
  endpoint_id: string;
  grace_seconds?: number;
}
export interface ListWebhookDeliveriesRequestV1 extends AccountScopedV1 {
  endpoint_id: string;
  limit: number;
  cursor?: string;
}
export interface RetryWebhookDeliveryRequestV1 extends AccountScopedV1 {
  endpoint_id: string;
  delivery_id: string;
}
export interface RotateDefaultSecretRequestV1 extends AccountScopedV1 {
  grace_seconds?: number;
}

export interface WebhooksRpc extends Record<WebhooksRpcMethod, { request: unknown; reply: unknown }> {
  create_endpoint: { request: CreateWebhookEndpointRequestV1; reply: WebhookEndpointWithSecret };
  list_endpoints: { request: ListWebhookEndpointsRequestV1; reply: WebhookEndpointPage };
  delete_endpoint: { request: WebhookEndpointRequestV1; reply: { deleted: true } };
  rotate_endpoint_secret: { request: RotateWebhookSecretRequestV1; reply: WebhookEndpointWithSecret };
  list_deliveries: { request: ListWebhookDeliveriesRequestV1; reply: WebhookDeliveryPage };
  retry_delivery: { request: RetryWebhookDeliveryRequestV1; reply: WebhookDelivery };
  get_default_secret: { request: AccountScopedV1; reply: WebhookDefaultSecret };
  rotate_default_secret: { request: RotateDefaultSecretRequestV1; reply: WebhookDefaultSecret };
}
