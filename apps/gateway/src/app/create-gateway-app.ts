import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ObjectStorage, storageConfig } from '@vj/storage';
import type { GatewayConfig } from '../gateway.env';
import { apiAccessMiddleware } from '../auth/api-access.middleware';
import { AllExceptionsFilter } from '../http/all-exceptions.filter';
import { AuthenticateApiKeyUseCase, createIdentityDataSource, runIdentityMigrations } from '../identity';
import { RateLimiter } from '../rate-limits/rate-limiter';
import { bodyParserErrorsMiddleware } from '../http/body-parser-errors.middleware';
import { requestIdMiddleware } from '../http/request-id.middleware';
import { httpObservabilityMiddleware, restoreLogContextMiddleware } from '../http/http-observability.middleware';
import { connectGatewayMessaging, type GatewayMessaging } from '../messaging/gateway-messaging';
import { GatewayModule } from './gateway.module';
import { logLevelsUpTo } from '@vj/config';
import { setupOpenApi } from './openapi';
import { WEB_DIST_DIR, webPageMiddleware } from '../web-page/web-page.middleware';

// Job creation bodies are a few hundred bytes; anything near this is not a real request.
export const JSON_BODY_LIMIT = '64kb';

export interface GatewayOverrides {
  // Tests pass fakes of the jobs service and the health pings instead of a NATS connection.
  messaging?: GatewayMessaging;
  // Where the web page's build is (default apps/web/dist); tests point at their own.
  webDistDir?: string;
}

// Boot steps (bucket, identity migrations, connections) then the HTTP app, initialised but not listening.
export async function createGatewayApp(config: GatewayConfig, overrides: GatewayOverrides = {}): Promise<NestExpressApplication> {
  const storage = new ObjectStorage(storageConfig(config));
  await storage.ensureBucket();
  const dataSource = await createIdentityDataSource(config.DATABASE_URL).initialize();
  let messaging: GatewayMessaging | undefined;
  try {
    await runIdentityMigrations(dataSource);
    messaging = overrides.messaging ?? (await connectGatewayMessaging(config));
    const app = await NestFactory.create<NestExpressApplication>(GatewayModule.register({ config, storage, dataSource, messaging }), {
      bodyParser: false,
      logger: logLevelsUpTo(config.LOG_LEVEL),
    });
    app.use(httpObservabilityMiddleware);
    app.use(requestIdMiddleware);
    // The web page at `/`, public; it sends the API key it is given to /v1 itself.
    app.use(webPageMiddleware({ distDir: overrides.webDistDir ?? WEB_DIST_DIR, storageOrigin: new URL(config.S3_PUBLIC_ENDPOINT ?? config.S3_ENDPOINT).origin }));
    // Before the body parser: a malformed or oversized body is refused after its key and its token.
    app.use('/v1', apiAccessMiddleware(app.get(AuthenticateApiKeyUseCase), app.get(RateLimiter)));
    app.useBodyParser('json', { limit: JSON_BODY_LIMIT });
    app.use(bodyParserErrorsMiddleware);
    app.use(restoreLogContextMiddleware);
    app.useGlobalFilters(new AllExceptionsFilter());
    setupOpenApi(app);
    return await app.init();
  } catch (error) {
    await messaging?.close();
    await dataSource.destroy();
    throw error;
  }
}
