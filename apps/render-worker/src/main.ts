import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { bootRenderWorker } from './boot';
import { renderWorkerEnv } from './render-worker.env';

async function main(): Promise<void> {
  const worker = await bootRenderWorker(renderWorkerEnv.parse(process.env));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    new Logger('render-worker').log(`${signal}: abandoning running jobs for redelivery and shutting down`);
    worker.stop(`worker stopping (${signal})`).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  new Logger('render-worker').fatal(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
