import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createGatewayApp } from './app/create-gateway-app';
import { gatewayEnv } from './gateway.env';

async function main(): Promise<void> {
  const config = gatewayEnv.parse(process.env);
  const app = await createGatewayApp(config);
  // SIGTERM/SIGINT: stop accepting requests, then close NATS and the database (GatewayResources).
  app.enableShutdownHooks();
  await app.listen(config.PORT);
  new Logger('Gateway').log(`listening on http://localhost:${config.PORT} (API docs at /docs)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
