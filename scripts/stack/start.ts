import { mkdirSync } from 'node:fs';
import { DEFAULT_DATA_DIR, startStack } from './stack';
import { removeStackEnv, writeStackEnv } from './stack-env-file';

// `npm start`: the whole stack in the foreground; Ctrl-C stops everything it started.
async function main(): Promise<void> {
  const dataDir = process.env.DATA_DIR ?? DEFAULT_DATA_DIR;
  mkdirSync(dataDir, { recursive: true });
  const stack = await startStack({
    dataDir,
    port: Number(process.env.PORT ?? 3000),
    renderWorkers: Number(process.env.RENDER_WORKERS ?? 1),
  });
  writeStackEnv(dataDir, stack.infra.env);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the stack\n`);
    removeStackEnv(dataDir);
    await stack.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  for (const service of stack.services) {
    void service.exited.then((code) => {
      if (!stopping) {
        process.stderr.write(`${service.name} exited with code ${code}; stopping the stack\n`);
        void shutdown('service exit');
      }
    });
  }
  process.stdout.write(
    [
      '',
      'Video jobs API is ready.',
      ...stack.infra.started.map((line) => `  ${line}`),
      `  API             ${stack.apiUrl}  (docs: ${stack.apiUrl}/docs)`,
      `  Web page        ${stack.apiUrl}/  (sign in with the API key below)`,
      `  API key         ${stack.apiKey}  (account ${stack.accountId})`,
      `  Runtime         Node.js ${process.version} (every service)`,
      '',
      `  curl -H "Authorization: Bearer ${stack.apiKey}" ${stack.apiUrl}/v1/jobs`,
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`npm start failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
