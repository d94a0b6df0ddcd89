import { env } from './env-spec';
import { LOG_LEVELS } from './log-levels';

// Variables shared by several services, declared once so their names and rules agree.

export const natsEnv = {
  NATS_URL: env.url({ doc: 'NATS server with JetStream enabled (may carry the service user and password)', protocols: ['nats', 'tls'], secret: true }),
};

export const databaseEnv = {
  DATABASE_URL: env.url({ doc: 'PostgreSQL connection URL', protocols: ['postgres', 'postgresql'], secret: true }),
};

export const s3Env = {
  S3_ENDPOINT: env.url({ doc: 'S3-compatible endpoint (MinIO in production)', protocols: ['http', 'https'] }),
  S3_ACCESS_KEY: env.string({ doc: 'S3 access key', secret: true }),
  S3_SECRET_KEY: env.string({ doc: 'S3 secret key', secret: true }),
  S3_BUCKET: env.string({ doc: 'bucket for uploads and job results (created when missing)', default: 'video-jobs' }),
  S3_REGION: env.string({ doc: 'S3 region used for request signing', default: 'us-east-1' }),
};

export const logEnv = {
  LOG_LEVEL: env.string({ doc: `the most verbose log level shown: ${LOG_LEVELS.join(', ')}`, default: 'log', choices: LOG_LEVELS }),
  LOG_FORMAT: env.string({
    doc: 'json: one JSON object a line, with request_id, job_id, account_id and trace_id when known; pretty: for a person at a terminal',
    default: 'json',
    choices: ['json', 'pretty'],
  }),
};

// Each service's own default, so all four run on one machine (npm start) without a clash.
export const DEFAULT_METRICS_PORTS = { gateway: 9460, jobs: 9461, 'render-worker': 9462, billing: 9463, 'webhook-delivery': 9464 } as const;

export const observabilityEnv = {
  METRICS_PORT: env.int({
    doc: `port of /metrics (Prometheus), /livez and /readyz, apart from any public API. Unset: ${Object.entries(DEFAULT_METRICS_PORTS)
      .map(([service, port]) => `${port} ${service}`)
      .join(', ')}; a second instance on one machine falls back to a free port and logs it`,
    optional: true,
    min: 0,
    max: 65535,
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: env.url({
    doc: 'OpenTelemetry collector (OTLP over HTTP, e.g. http://otel-collector:4318) to send traces to; unset: no traces are exported, traceparent still passes through NATS. The other OTEL_* variables of the SDK apply',
    protocols: ['http', 'https'],
    optional: true,
  }),
};
