import type { OpenAPIObject } from '@nestjs/swagger';

// One example per body the API takes or answers, keyed by its component name, so generated clients and
// the docs show a real exchange. openapi-examples.spec.ts checks each against its own schema, and that
// every JSON body of the document has one.

const JOB_ID = '5f0c6f3e-8d1a-4c43-9e0e-2b7f3f1d6a10';
const ACCOUNT_ID = '0b5a3c1e-2f4d-4e6a-8b9c-1d2e3f4a5b6c';
const ENDPOINT_ID = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const RESULT_URL = 'https://storage.example.com/video-jobs/results/5f0c6f3e/clean.mp4?X-Amz-Signature=...';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const webhookEndpoint = {
  id: ENDPOINT_ID,
  url: 'https://example.com/hooks/video-jobs',
  events: ['job.completed', 'job.failed'],
  job_id: null,
  enabled: true,
  disabled_reason: null,
  created_at: '2026-11-24T09:00:00.000Z',
  previous_secret_expires_at: null,
};
const webhookDelivery = {
  id: '2d9a7f0c-64b3-4c1e-9a51-0e4f3b7c8d21',
  endpoint_id: ENDPOINT_ID,
  event_type: 'job.completed',
  job_id: JOB_ID,
  state: 'delivered',
  attempts: [
    { attempted_at: '2026-11-24T09:01:12.480Z', status_code: 503, error: null, duration_ms: 87, response_body: 'upstream unavailable' },
    { attempted_at: '2026-11-24T09:01:18.020Z', status_code: 200, error: null, duration_ms: 41, response_body: 'ok' },
  ],
  next_attempt_at: null,
  created_at: '2026-11-24T09:01:12.400Z',
};
const completedCleanAudio = {
  job_id: JOB_ID,
  status: 'COMPLETED',
  result: { video: { url: RESULT_URL, content_type: 'video/mp4', file_name: 'talk.mp4', file_size: 48_213_774 } },
  credits_charged: 26,
};

export const REQUEST_EXAMPLES: Record<string, unknown> = {
  CreateCleanAudioVideoJobRequest: { video_url: 'upload://9b2e4c1d-7f3a-4e8b-a6d5-1c0f2e3d4b5a', strength: 0.8, target_lufs: -16, webhook_url: 'https://example.com/hooks/video-jobs' },
  CreateVideoBackgroundRemovalJobRequest: { video_url: 'https://media.example.com/interview.mp4', output_codec: 'vp9', refine_foreground_edges: true },
  CreateUploadRequest: { file_name: 'talk.mp4', content_type: 'video/mp4', file_size: 48_213_774 },
  CreateWebhookEndpointRequest: { url: 'https://example.com/hooks/video-jobs', events: ['job.completed', 'job.failed'] },
  RotateWebhookSecretRequest: { grace_seconds: 86_400 },
};

export const RESPONSE_EXAMPLES: Record<string, unknown> = {
  CleanAudioVideoJob: completedCleanAudio,
  VideoBackgroundRemovalJob: {
    job_id: JOB_ID,
    status: 'COMPLETED',
    result: { files: [{ url: RESULT_URL.replace('clean.mp4', 'cutout.webm'), content_type: 'video/webm', file_name: 'interview.webm', file_size: 9_310_442 }] },
    credits_charged: 120,
  },
  RequestError: { error: { code: 'invalid_request', message: 'the body is not valid', details: [{ type: 'invalid_value', field: 'strength', message: 'strength must not be greater than 1' }] } },
  JobList: { data: [{ type: 'clean-audio-video', created_at: '2026-11-24T09:00:00.000Z', job: completedCleanAudio }], next_cursor: null },
  Upload: {
    upload_id: '9b2e4c1d-7f3a-4e8b-a6d5-1c0f2e3d4b5a',
    upload_url: 'https://storage.example.com/video-jobs/uploads/9b2e4c1d?X-Amz-Signature=...',
    video_url: 'upload://9b2e4c1d-7f3a-4e8b-a6d5-1c0f2e3d4b5a',
    expires_at: '2026-11-24T10:00:00.000Z',
  },
  Health: { status: 'ok', checks: { nats: 'up', s3: 'up', database: 'up', jobs: 'up', 'render-worker': 'up', billing: 'up', 'webhook-delivery': 'up' } },
  Estimate: { credits_estimated: 26, duration_seconds: 25.4, basis: 'probed_duration' },
  Balance: { account_id: ACCOUNT_ID, balance: 10_000, held: 26, available: 9_974 },
  UsageReport: {
    account_id: ACCOUNT_ID,
    from: '2026-11-01T00:00:00.000Z',
    to: '2026-11-24T00:00:00.000Z',
    group_by: 'day',
    rows: [{ day: '2026-11-23', jobs: 3, billed_seconds: 94, credits: 146 }],
    totals: { jobs: 3, billed_seconds: 94, credits: 146 },
  },
  LedgerPage: {
    data: [
      { entry_id: 'f1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b', kind: 'charge', credits: 26, job_id: JOB_ID, job_type: 'clean-audio-video', balance_after: 9_974, held_after: 0, created_at: '2026-11-24T09:01:12.000Z' },
    ],
    next_cursor: null,
  },
  WebhookEndpoint: webhookEndpoint,
  WebhookEndpointWithSecret: { ...webhookEndpoint, secret: SECRET },
  WebhookEndpointList: { data: [webhookEndpoint] },
  WebhookDelivery: webhookDelivery,
  WebhookDeliveryPage: { data: [webhookDelivery], next_cursor: null },
  WebhookDefaultSecret: { secret: SECRET, previous_secret_expires_at: null },
  WebhookPayload: { type: 'job.completed', timestamp: '2026-11-24T09:01:12.300Z', data: { job: completedCleanAudio } },
};

type Media = { schema?: { $ref?: string; oneOf?: { $ref?: string }[] }; example?: unknown };

function componentOf(schema: Media['schema']): string | undefined {
  const ref = schema?.$ref ?? schema?.oneOf?.[0]?.$ref;
  return ref?.split('/').pop();
}

function withExample(media: Media | undefined, examples: Record<string, unknown>): void {
  const name = media && componentOf(media.schema);
  if (media && name && examples[name] !== undefined) media.example = examples[name];
}

type Operation = { requestBody?: { content?: Record<string, Media> }; responses?: Record<string, { content?: Record<string, Media> }> };

// Puts the examples on every JSON request body and answer that references a component.
export function documentExamples(document: OpenAPIObject): void {
  const items = [...Object.values(document.paths), ...Object.values(document.webhooks ?? {})];
  for (const item of items) {
    for (const operation of Object.values(item) as Operation[]) {
      if (!operation || typeof operation !== 'object') continue;
      withExample(operation.requestBody?.content?.['application/json'], { ...REQUEST_EXAMPLES, ...RESPONSE_EXAMPLES });
      for (const response of Object.values(operation.responses ?? {})) withExample(response.content?.['application/json'], RESPONSE_EXAMPLES);
    }
  }
}
