import { env } from './env-spec';
import { LOG_LEVELS } from './log-levels';

// Variables shared by several services, declared once so their names and rules agree.

export const natsEnv = {
  NATS_URL: env.url({ doc: 'NATS server with JetStream enabled', protocols: ['nats', 'tls'] }),
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
};
