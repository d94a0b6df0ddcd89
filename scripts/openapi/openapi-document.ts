import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { ObjectStorage } from '@vj/storage';
import type { DataSource } from 'typeorm';
import { buildOpenApiDocument } from '../../apps/gateway/src/app/openapi';
import { GatewayModule } from '../../apps/gateway/src/app/gateway.module';
import { gatewayEnv } from '../../apps/gateway/src/gateway.env';
import type { GatewayMessaging } from '../../apps/gateway/src/messaging/gateway-messaging';

export { OPENAPI_FILE } from '@vj/http-contracts';

// The gateway's OpenAPI document without its infrastructure: the module in preview mode (routes and
// their metadata, no provider runs), so the file can be written anywhere, CI included.
export async function renderOpenApi(): Promise<string> {
  const config = gatewayEnv.parse({ NATS_URL: 'nats://127.0.0.1:4222', DATABASE_URL: 'postgres://127.0.0.1/none', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY: 'none', S3_SECRET_KEY: 'none' });
  const deps = { config, storage: {} as ObjectStorage, dataSource: {} as DataSource, messaging: {} as GatewayMessaging };
  const app = await NestFactory.create(GatewayModule.register(deps), { preview: true, logger: false, abortOnError: false });
  try {
    return `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  } finally {
    await app.close();
  }
}
