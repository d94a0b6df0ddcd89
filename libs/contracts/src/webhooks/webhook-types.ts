// Webhooks (issue 11, decision 0032): the REST shapes of /v1/webhook-endpoints and the RPC catalogue
// the gateway calls on the webhooks service (vj.rpc.webhooks.v1.*). Work in progress: the service that
// serves them is not built yet.

// What an endpoint may subscribe to; job.progress is opt-in (not in the default set).
export const WEBHOOK_EVENT_TYPES = ['job.started', 'job.progress', 'job.completed', 'job.failed', 'job.cancelled'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEventType[] = ['job.started', 'job.completed', 'job.failed', 'job.cancelled'];

// GET /v1/webhook-endpoints (never with a secret).
export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
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

// The body every delivery POSTs: the job exactly as GET /v1/{type}/{job_id} returns it.
export interface WebhookPayload<Job = unknown> {
  type: WebhookEventType;
  timestamp: string;
  data: { job: Job };
}
