// @ts-check
// A Node process started ahead of need (warm-node-processes.ts): it boots, then waits on its IPC
// channel for the script to run and that script's arguments, and runs it as `node <script> <args>`
// would. The channel is closed once the message is in, so the script owns stdin, stdout and stderr
// alone. A parent that goes away before sending anything takes this process with it. While it waits,
// its name in `ps` is the title it was started with (argv[2]); once given a script, `node <script>`.
// The modules named after the title are imported while it waits, and each one's prepare() run: what a
// script does before its first byte of work (compiling and warming its wasm) is then done ahead of it.
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';

process.title = process.argv[2] ?? 'node';
// Only once the process has waited PREPARE_AFTER_MS: it is booted at the worker's own start and right
// after a job, and preparing beside those took CPU from them (a deploy's new worker booted slower). A
// script given before then prepares nothing ahead, as before decision 0110. Not awaited by the script:
// one given while a prepare() runs starts once its synchronous part ends, and shares the compiled
// modules all the same. Failures are dropped: a module that cannot load is reported by the script's
// own import, and a prepare() that fails only leaves the work to the job (stderr belongs to the job's
// script, so there is nowhere to say so).
const PREPARE_AFTER_MS = 3_000;
const preparing = setTimeout(() => {
  for (const path of process.argv.slice(3)) {
    import(pathToFileURL(path).href).then((module) => module.prepare?.()).catch(() => undefined);
  }
}, PREPARE_AFTER_MS);
process.once('disconnect', () => process.exit(0));
process.once('message', (/** @type {{ argv?: unknown }} */ message) => {
  const argv = message?.argv;
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((arg) => typeof arg === 'string')) {
    process.stderr.write('warm-node-bootstrap: expected { argv: [script, ...args] }\n');
    process.exit(2);
  }
  clearTimeout(preparing);
  process.removeAllListeners('disconnect');
  process.disconnect();
  process.argv = [process.argv[0] ?? process.execPath, ...argv];
  process.title = `node ${basename(argv[0])}`;
  import(pathToFileURL(argv[0]).href).catch((/** @type {unknown} */ error) => {
    process.stderr.write(`warm-node-bootstrap: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
});
