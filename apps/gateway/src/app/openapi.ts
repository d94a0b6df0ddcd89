import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { loadAsyncApiDocument, WEBHOOK_EVENT_TYPES } from '@vj/contracts';
import { ALL_SCHEMAS } from '@vj/http-contracts';
import { schemaRef } from '../http/openapi-responses';
import { documentExamples } from './openapi-examples';

// The contracts' schemas use bare $ref ids (Ajv); OpenAPI wants component paths.
function toComponent(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toComponent);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id') continue;
    out[key] = key === '$ref' && typeof value === 'string' && !value.startsWith('#') ? `#/components/schemas/${value}` : toComponent(value);
  }
  return out;
}

export function contractSchemaComponents(): Record<string, unknown> {
  return Object.fromEntries(ALL_SCHEMAS.map((schema) => [schema.$id, toComponent(schema)]));
}

// The API's OpenAPI 3.1 document (3.1 because the contracts' schemas use JSON Schema features 3.0 lacks:
// type arrays, if/then). scripts/render-openapi.ts writes it to libs/http-contracts/src/http/openapi.json,
// which the SDK's types are generated from.
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const options = new DocumentBuilder()
    .setTitle('Video jobs API')
    .setDescription('Background removal and audio cleaning of videos, as asynchronous jobs.')
    .setVersion('1')
    .setOpenAPIVersion('3.1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key' })
    .addServer('/', 'the host that serves this document (npm start: http://localhost:3000)')
    .addTag('clean-audio-video', 'The same video with its audio replaced by a denoised 48 kHz mono track; the picture copied bit for bit.')
    .addTag('video-background-removal', 'A person cut out of a video: one VP9 WebM with alpha, or an H.264 picture plus an H.264 alpha matte.')
    .addTag('jobs', 'Every job of the account, whatever its type.')
    .addTag('uploads', 'Send a local file: a presigned PUT, then its video_url in a create.')
    .addTag('billing', 'Credits: quotes, the balance, usage and the ledger.')
    .addTag('webhooks', 'Signed notifications of job events (Standard Webhooks) to your endpoints.')
    .addTag('health', 'Whether the platform can take a job.')
    .build();
  const document = SwaggerModule.createDocument(app, options);
  document.info.license = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } as OpenAPIObject['info']['license'];
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...(contractSchemaComponents() as NonNullable<OpenAPIObject['components']>['schemas']) },
  };
  documentRateLimits(document);
  documentWebhooks(document);
  documentExamples(document);
  return document;
}

// Swagger UI at /docs, the document at /docs-json, the AsyncAPI document of the events at /docs/events.
export function setupOpenApi(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  // The event contract for internal consumers (AsyncAPI 3, decision 0031), beside the API's; before
  // Swagger UI's routes under /docs.
  const http = app.getHttpAdapter();
  http.get('/docs/events', (_req: unknown, res: unknown) => http.reply(res, loadAsyncApiDocument(), 200));
  SwaggerModule.setup('docs', app, document);
  return document;
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: "size of the API key's token bucket for this kind of request (reads, or creates/estimates/uploads)", schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'requests left in the bucket now', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'seconds until the bucket is full again', schema: { type: 'integer' } },
};

// Every /v1 answer carries the RateLimit-* headers, and any /v1 call may be refused with 429
// rate_limited and Retry-After (the key's bucket is empty, or a create passes the account's cap on
// PROCESSING jobs): written into every operation here rather than on each controller.
function documentRateLimits(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const operation of Object.values(item) as { responses?: Record<string, { headers?: object; description?: string; content?: object }> }[]) {
      if (!operation?.responses) continue;
      operation.responses['429'] ??= {
        description: 'rate_limited: too many requests for this API key, or the account has its most jobs PROCESSING; retry after Retry-After seconds',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/RequestError' } } },
      };
      for (const [status, response] of Object.entries(operation.responses)) {
        response.headers = {
          ...response.headers,
          ...RATE_LIMIT_HEADERS,
          ...(status === '429' && { 'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer' } } }),
        };
      }
    }
  }
}

const WEBHOOK_HEADERS = [
  { name: 'webhook-id', description: "the delivery's id, the same on every attempt: dedupe on it" },
  { name: 'webhook-timestamp', description: 'seconds since the epoch when this attempt was signed; refuse one more than five minutes off' },
  {
    name: 'webhook-signature',
    description: 'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> with the whsec_ secret (Standard Webhooks); two, space-separated, during a rotation\'s grace',
  },
];

// What a registered endpoint (or a create's webhook_url) receives, as OpenAPI 3.1 webhooks: one POST
// per event type, all with the same signed body.
function documentWebhooks(document: OpenAPIObject): void {
  const webhooks: Record<string, unknown> = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    webhooks[type] = {
      post: {
        operationId: `receive${type.replace(/(^|[.])([a-z])/g, (_m, _dot: string, letter: string) => letter.toUpperCase())}Webhook`,
        summary: `${type} delivered to your endpoint`,
        tags: ['webhooks'],
        // Receivers check the signature; no API key is involved.
        security: [],
        parameters: WEBHOOK_HEADERS.map((header) => ({ ...header, in: 'header', required: true, schema: { type: 'string' } })),
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef('WebhookPayload') } } },
        responses: {
          '200': { description: 'any 2xx within WEBHOOK_TIMEOUT_MS accepts the delivery' },
          '410': { description: 'Gone: the endpoint is disabled and nothing more is sent to it' },
          default: { description: 'anything else is retried on WEBHOOK_RETRY_SCHEDULE (a 429 or 503 no earlier than its Retry-After)' },
        },
      },
    };
  }
  document.webhooks = webhooks as NonNullable<OpenAPIObject['webhooks']>;
}
