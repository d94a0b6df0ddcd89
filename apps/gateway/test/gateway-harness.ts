import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { JobType } from '@vj/contracts';
import { jobSchemaId, schemaViolations, type SchemaId } from '@vj/http-contracts';
import { createDatabase, startS3Server, type LocalS3Server } from '@vj/local-stack';
import { ObjectStorage } from '@vj/storage';
import { createGatewayApp, type GatewayOverrides } from '../src/app/create-gateway-app';
import { gatewayEnv, type GatewayConfig } from '../src/gateway.env';
import { AccountsRepository } from '../src/identity/accounts.repository';
import { CreateAccountUseCase, type CreatedAccount } from '../src/identity/create-account.use-case';
import { fakeMessaging } from './fake-messaging';

export const TEST_UPLOAD_MAX_BYTES = 1000;
export const TEST_UPLOAD_MULTIPART_MAX_BYTES = 64 * 1024 ** 2;

// The real gateway app on a real PostgreSQL database and a real S3 server, with fakes of the jobs
// service, billing and the render workers' probe.
export async function startGateway(databaseName: string, env: Record<string, string> = {}, overrides: Omit<GatewayOverrides, 'messaging'> = {}) {
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_ADMIN_URL is not set (jest global setup)');
  const s3: LocalS3Server = await startS3Server();
  const config: GatewayConfig = gatewayEnv.parse({
    NATS_URL: 'nats://127.0.0.1:4222',
    DATABASE_URL: await createDatabase(adminUrl, databaseName),
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    UPLOAD_MAX_BYTES: String(TEST_UPLOAD_MAX_BYTES),
    UPLOAD_MULTIPART_MAX_BYTES: String(TEST_UPLOAD_MULTIPART_MAX_BYTES),
    LOG_LEVEL: 'fatal',
    // Limits far away unless a test is about them (rate-limits.int-spec.ts sets its own).
    RATE_LIMIT_READ_BURST: '100000',
    RATE_LIMIT_WRITE_BURST: '100000',
    RATE_LIMIT_UNAUTHENTICATED_BURST: '100000',
    ACCOUNT_MAX_PROCESSING_JOBS: '100000',
    // Every quote asks the fake billing, so a test can make it unreachable at once (current-prices.spec.ts
    // covers the cache).
    PRICE_LIST_CACHE_SECONDS: '0',
    ...env,
  });
  const messaging = fakeMessaging();
  const app: NestExpressApplication = await createGatewayApp(config, { ...overrides, messaging });
  const storage = new ObjectStorage({
    endpoint: s3.endpoint,
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
  });
  const createAccount = new CreateAccountUseCase(app.get(AccountsRepository));
  return {
    app,
    config,
    storage,
    jobs: messaging.jobs,
    jobUpdates: messaging.jobUpdates,
    billing: messaging.billing,
    mediaProbe: messaging.mediaProbe,
    webhooks: messaging.webhooks,
    serviceHealth: messaging.serviceHealth,
    server: app.getHttpServer(),
    newAccount: (name = 'acme'): Promise<CreatedAccount> => createAccount.execute({ name }),
    // POST /v1/uploads, then the PUT of `body` as declared; `put: false` declares without uploading.
    async upload(account: CreatedAccount, body: string, options: { contentType?: string; put?: boolean } = {}) {
      const contentType = options.contentType ?? 'video/mp4';
      const created = await request(app.getHttpServer())
        .post('/v1/uploads')
        .set(bearer(account))
        .send({ file_name: 'clip.mp4', content_type: contentType, file_size: Buffer.byteLength(body) });
      expect(created.status).toBe(201);
      if (options.put !== false) expect((await fetch(created.body.upload_url, { method: 'PUT', body, headers: { 'content-type': contentType } })).status).toBe(200);
      return created.body as { upload_id: string; upload_url: string; video_url: string };
    },
    // Writes an object straight into the bucket, as our own services do.
    async putObject(key: string, body: string, contentType = 'application/octet-stream') {
      const url = await storage.presignPut(key, 60, { contentLength: Buffer.byteLength(body), contentType });
      expect((await fetch(url, { method: 'PUT', body, headers: { 'content-type': contentType } })).status).toBe(200);
    },
    async stop() {
      await app.close();
      await s3.stop();
    },
  };
}

export type GatewayHarness = Awaited<ReturnType<typeof startGateway>>;

export function bearer(account: CreatedAccount): { Authorization: string } {
  return { Authorization: `Bearer ${account.api_key}` };
}

// Every response body in the gateway's tests goes through the contracts' JSON Schemas.
export function expectSchema(id: SchemaId, body: unknown): void {
  expect(schemaViolations(id, body)).toEqual([]);
}

export function expectJob(type: JobType, body: unknown): void {
  expectSchema(jobSchemaId(type) as SchemaId, body);
}

export function expectJobList(body: { data?: { type: JobType; job: unknown }[] }): void {
  expectSchema('JobList', body);
  for (const item of body.data ?? []) expectJob(item.type, item.job);
}
