import { startS3Server } from '@vj/local-stack';

// The benchmarks' S3 server (s3rver) as a process of its own (bench-stack.ts): in the benchmark's
// process it shared one event loop with the load generator, so each delayed the other's requests and
// the timings. Prints its endpoint and keys as one JSON line, then serves until SIGTERM.
async function main(): Promise<void> {
  const server = await startS3Server({ directory: process.argv[2] });
  process.once('SIGTERM', () => void server.stop().then(() => process.exit(0)));
  process.stdout.write(`${JSON.stringify({ endpoint: server.endpoint, accessKey: server.accessKey, secretKey: server.secretKey })}\n`);
}

void main();
