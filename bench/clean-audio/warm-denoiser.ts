import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { DENOISER_MODULES, denoiseCommand, RNNOISE_FILTER } from '../../apps/render-worker/src/media/denoise-command';
import { ProcessRunner } from '../../apps/render-worker/src/media/process-runner';
import { WarmNodeProcesses } from '../../apps/render-worker/src/media/warm-node-processes';
import { numberArg, runBench } from '../support/bench-stack';
import { median } from '../support/stats';

// bench/clean-audio/warm-denoiser: a short input through the denoiser in a warm process (booted while
// no job waits, as the render worker keeps them), with and without its wasm prepared there first
// (decision 0110), alternating; from the command to its exit. Usage:
// npm run bench:warm-denoiser [-- --seconds 1 --runs 7]

const SPEECH = join(__dirname, '..', '..', '..', 'shared', 'media', 'audio', 'sense_and_sensibility_01_austen_64kb-0870.wav');
// How long a waiting process is given to boot (and prepare, 3 s after it boots) before it is used.
const WAIT_MS = 5_000;

async function main(): Promise<void> {
  const seconds = numberArg('--seconds', 1);
  const runs = numberArg('--runs', 7);
  const source = existsSync(SPEECH) ? ['-i', SPEECH] : ['-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000'];
  const { stdout: input } = await promisify(execFile)('ffmpeg', ['-v', 'error', ...source, '-t', String(seconds), '-ac', '1', '-ar', '48000', '-f', 's16le', '-'], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  const times = { booted: [] as number[], prepared: [] as number[] };
  for (let run = 0; run < runs; run++) {
    for (const kind of ['booted', 'prepared'] as const) {
      const warm = new WarmNodeProcesses({ scripts: [RNNOISE_FILTER], prepare: kind === 'prepared' ? DENOISER_MODULES : [], size: 1 });
      try {
        warm.fill();
        await sleep(WAIT_MS);
        const started = performance.now();
        await new ProcessRunner(warm.spawn).run(denoiseCommand(process.execPath, 0.874), { timeoutMs: 120_000, stdin: Readable.from([input]), stdout: 'capture' });
        times[kind].push(performance.now() - started);
      } finally {
        warm.close();
      }
    }
  }
  console.log(`denoiser in a warm process, ${seconds} s of ${existsSync(SPEECH) ? 'speech' : 'a tone'}, median of ${runs} runs (alternating)`);
  console.log(`  booted only          ${median(times.booted).toFixed(0).padStart(6)} ms`);
  console.log(`  its wasm prepared    ${median(times.prepared).toFixed(0).padStart(6)} ms   ${(median(times.prepared) / median(times.booted)).toFixed(2)} of it`);
}

runBench(main);
