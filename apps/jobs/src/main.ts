import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createJobsApp } from './app/create-jobs-app';
import { jobsEnv } from './jobs.env';

async function main(): Promise<void> {
  const app = await createJobsApp(jobsEnv.parse(process.env));
  await app.listen();
}

main().catch((error: unknown) => {
  new Logger('jobs').fatal(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
