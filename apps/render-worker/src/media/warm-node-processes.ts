import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { join } from 'node:path';
import type { StartProcess } from './process-runner';

const BOOTSTRAP = join(__dirname, 'warm-node-bootstrap.mjs');
// A waiting process's name in `ps` (its command and arguments): an operator, or a test, tells it from
// one at work.
export const WAITING_TITLE = 'vj-warm-node';

export interface WarmNodeOptions {
  // The scripts a warm process may run; any other command starts cold.
  scripts: readonly string[];
  // Modules a waiting process imports, running each one's exported prepare() (warm-node-bootstrap.mjs).
  prepare?: readonly string[];
  // Processes kept booted and waiting.
  size: number;
  nodePath?: string;
}

// Node processes booted ahead of need, for scripts the worker runs once per job (the denoiser): a cold
// `node script.mjs` spends about 90 ms booting before it reads its first byte, on every job. `spawn`
// runs such a command in a waiting process, which then behaves as if started with it. Commands it was
// not given start cold, as do all of them once the waiting ones are in use. The owner calls fill()
// when the boots are out of a job's way (between jobs): booting during one takes a core from it.
export class WarmNodeProcesses {
  private readonly waiting: ChildProcess[] = [];
  private readonly nodePath: string;
  private closed = false;

  constructor(private readonly options: WarmNodeOptions) {
    this.nodePath = options.nodePath ?? process.execPath;
  }

  // Boots processes until `size` are waiting. One that died while waiting (killed from outside) is
  // replaced here too, not when it dies: a bootstrap that cannot start never becomes a loop of spawns.
  fill(): void {
    try {
      while (!this.closed && this.waiting.length < this.options.size) this.waiting.push(this.boot());
    } catch {
      // spawn refused at once (an invalid setting): jobs start their denoisers cold, and a job's own
      // spawn reports the reason.
    }
  }

  readonly spawn: StartProcess = (file, args, options) => {
    const warm = this.canRunWarm(file, args, options) ? this.take() : undefined;
    if (!warm) return spawn(file, args, options);
    warm.send({ argv: args });
    return warm;
  };

  // Waiting processes are killed; ones already given out belong to their runs.
  close(): void {
    this.closed = true;
    for (const child of this.waiting.splice(0)) child.kill('SIGKILL');
  }

  private canRunWarm(file: string, args: readonly string[], options: SpawnOptions): boolean {
    const stdio = options.stdio;
    return (
      file === this.nodePath &&
      args.length > 0 &&
      this.options.scripts.includes(args[0]!) &&
      Array.isArray(stdio) &&
      stdio.length === 3 &&
      stdio.every((entry) => entry === 'pipe') &&
      Object.keys(options).length === 1
    );
  }

  private take(): ChildProcess | undefined {
    while (this.waiting.length) {
      const child = this.waiting.shift()!;
      if (child.exitCode === null && child.signalCode === null && child.connected) return child;
    }
    return undefined;
  }

  private boot(): ChildProcess {
    const child = spawn(this.nodePath, [BOOTSTRAP, WAITING_TITLE, ...(this.options.prepare ?? [])], { stdio: ['pipe', 'pipe', 'pipe', 'ipc'] });
    const diedWaiting = (): void => {
      const at = this.waiting.indexOf(child);
      if (at !== -1) this.waiting.splice(at, 1);
    };
    child.once('exit', diedWaiting);
    child.once('error', diedWaiting);
    return child;
  }
}
