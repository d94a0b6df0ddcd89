import { startJobCounts } from './job-counts';

// node scripts/run-ts.cjs examples/job-counts/src/main.ts, with NATS_URL (the job-counts NATS user)
// and DATABASE_URL.
async function main(): Promise<void> {
  const natsUrl = process.env.NATS_URL;
  const databaseUrl = process.env.DATABASE_URL;
  if (!natsUrl || !databaseUrl) throw new Error('NATS_URL and DATABASE_URL must be set');
  const service = await startJobCounts({ natsUrl, databaseUrl, log: (line) => console.log(line) });
  console.log('job-counts: counting job events');
  const stop = () => void service.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
