import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { MediaError } from './media-error';
import { ProcessFailedError, ProcessRunner } from './process-runner';
import { WAITING_TITLE, WarmNodeProcesses } from './warm-node-processes';

// How long the tests let waiting processes boot; a script started in one reports an uptime past it.
const BOOT_WAIT_MS = 1_500;

describe('WarmNodeProcesses', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vj-warm-node-'));
  // Prints how long its process has been up, its arguments and the bytes on stdin; exits with --exit.
  const report = join(dir, 'report.mjs');
  writeFileSync(
    report,
    `let bytes = 0;
     const uptime = process.uptime();
     for await (const chunk of process.stdin) bytes += chunk.length;
     const code = process.argv.includes('--exit') ? Number(process.argv[process.argv.indexOf('--exit') + 1]) : 0;
     process.stdout.write(JSON.stringify({ uptime, args: process.argv.slice(2), bytes }));
     if (code) process.stderr.write('failing on purpose\\n');
     process.exitCode = code;`,
  );
  const endless = join(dir, 'endless.mjs');
  writeFileSync(endless, 'setInterval(() => undefined, 1000);');
  const other = join(dir, 'other.mjs');
  writeFileSync(other, "process.stdout.write(JSON.stringify({ uptime: process.uptime() }));");

  let warm: WarmNodeProcesses;
  let runner: ProcessRunner;
  beforeEach(async () => {
    warm = new WarmNodeProcesses({ scripts: [report, endless], size: 1 });
    warm.fill();
    runner = new ProcessRunner(warm.spawn);
    await sleep(BOOT_WAIT_MS);
  });
  afterEach(() => warm.close());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const runReport = async (args: string[] = []) => {
    const { stdout } = await runner.run({ file: process.execPath, args: [report, ...args] }, { timeoutMs: 20_000, stdin: Readable.from([Buffer.alloc(70_000)]), stdout: 'capture' });
    return JSON.parse(stdout) as { uptime: number; args: string[]; bytes: number };
  };

  it('runs a script it was given in a process booted before it was asked, with its arguments and stdin', async () => {
    const result = await runReport(['--strength', '0.5']);
    expect(result.uptime * 1000).toBeGreaterThan(BOOT_WAIT_MS * 0.9);
    expect(result.args).toEqual(['--strength', '0.5']);
    expect(result.bytes).toBe(70_000);
  });

  it("passes on the script's exit code and stderr", async () => {
    const failed = await runReport(['--exit', '3']).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ProcessFailedError);
    expect(failed).toMatchObject({ exitCode: 3, stderrTail: 'failing on purpose\n' });
  });

  it('boots replacements when filled again, not before', async () => {
    await runReport();
    await sleep(BOOT_WAIT_MS);
    expect((await runReport()).uptime * 1000).toBeLessThan(BOOT_WAIT_MS * 0.9);
    warm.fill();
    await sleep(BOOT_WAIT_MS);
    expect((await runReport()).uptime * 1000).toBeGreaterThan(BOOT_WAIT_MS * 0.9);
  });

  it('starts cold in place of a waiting process that died, and replaces it when filled again', async () => {
    const { stdout } = await runner.run({ file: 'pgrep', args: ['-P', String(process.pid), '-x', WAITING_TITLE] }, { timeoutMs: 5_000, stdout: 'capture' });
    for (const pid of stdout.trim().split('\n')) process.kill(Number(pid), 'SIGKILL');
    await sleep(200);
    expect((await runReport()).uptime * 1000).toBeLessThan(BOOT_WAIT_MS * 0.9);
    warm.fill();
    await sleep(BOOT_WAIT_MS);
    expect((await runReport()).uptime * 1000).toBeGreaterThan(BOOT_WAIT_MS * 0.9);
  });

  it('starts cold once the waiting ones are in use, and for scripts it was not given', async () => {
    const [first, second] = await Promise.all([runReport(), runReport()]);
    expect(Math.max(first!.uptime, second!.uptime) * 1000).toBeGreaterThan(BOOT_WAIT_MS * 0.9);
    expect(Math.min(first!.uptime, second!.uptime) * 1000).toBeLessThan(BOOT_WAIT_MS * 0.9);
    const { stdout } = await runner.run({ file: process.execPath, args: [other] }, { timeoutMs: 20_000, stdout: 'capture' });
    expect((JSON.parse(stdout) as { uptime: number }).uptime * 1000).toBeLessThan(BOOT_WAIT_MS * 0.9);
  });

  it('lets the runner kill a process it gave (time limit)', async () => {
    const killed = await runner.run({ file: process.execPath, args: [endless] }, { timeoutMs: 300, stdin: Readable.from([]), stdout: 'capture' }).catch((error: unknown) => error);
    expect(killed).toBeInstanceOf(MediaError);
    expect((killed as MediaError).code).toBe('timeout');
  });

  it('kills the waiting processes on close: later commands start cold', async () => {
    warm.close();
    expect((await runReport()).uptime * 1000).toBeLessThan(BOOT_WAIT_MS * 0.9);
  });

  it('prepares the modules it was given while it waits, and the script finds them prepared; a module that cannot load is left to the script', async () => {
    // prepare() notes when it ran; the script imports the same module and prints that.
    const prepared = join(dir, 'prepared.mjs');
    writeFileSync(prepared, 'export let preparedAt = null; export async function prepare() { preparedAt = process.uptime(); }');
    const script = join(dir, 'uses-prepared.mjs');
    writeFileSync(script, `import { preparedAt } from ${JSON.stringify(prepared)}; process.stdout.write(JSON.stringify({ preparedAt, uptime: process.uptime() }));`);
    const preparing = new WarmNodeProcesses({ scripts: [script], prepare: [join(dir, 'missing.mjs'), prepared], size: 1 });
    try {
      preparing.fill();
      // It prepares 3 s after it boots (warm-node-bootstrap.mjs's PREPARE_AFTER_MS).
      await sleep(3_000 + BOOT_WAIT_MS);
      const { stdout } = await new ProcessRunner(preparing.spawn).run({ file: process.execPath, args: [script] }, { timeoutMs: 20_000, stdin: Readable.from([]), stdout: 'capture' });
      const { preparedAt, uptime } = JSON.parse(stdout) as { preparedAt: number | null; uptime: number };
      expect(preparedAt).not.toBeNull();
      expect(preparedAt! * 1000).toBeLessThan(3_000 + BOOT_WAIT_MS * 0.9);
      expect(uptime * 1000).toBeGreaterThan(3_000 + BOOT_WAIT_MS * 0.9);
    } finally {
      preparing.close();
    }
  });
});

describe('warm-node-bootstrap.mjs', () => {
  it('exits when its parent goes away before giving it a script', async () => {
    const child = spawn(process.execPath, [join(__dirname, 'warm-node-bootstrap.mjs')], { stdio: ['pipe', 'pipe', 'pipe', 'ipc'] });
    await sleep(500);
    child.disconnect();
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it('refuses a message that names no script', async () => {
    const child = spawn(process.execPath, [join(__dirname, 'warm-node-bootstrap.mjs')], { stdio: ['pipe', 'pipe', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.send({ argv: [42] });
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(stderr).toContain('expected { argv: [script, ...args] }');
  });
});
