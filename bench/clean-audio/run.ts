import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { startStack } from '../../scripts/stack/stack';
import { denoiseBaseline } from './denoise-baseline';

// bench/clean-audio: a 640x480, 60 s clip through the whole stack (create -> COMPLETED), next to a
// baseline measured in the same run: plain ffmpeg stream copy of the picture plus the denoiser alone.
// Prints times, their ratio and x-realtime. Usage: npm run bench:clean-audio [-- --runs 3]

const run = promisify(execFile);
const SECONDS = 60;
const SHARED_MEDIA = join(__dirname, '..', '..', '..', 'shared', 'media');

async function makeClip(path: string): Promise<void> {
  const speech = join(SHARED_MEDIA, 'audio', 'sense_and_sensibility_01_austen_64kb-0870.wav');
  const noise = join(SHARED_MEDIA, 'audio', 'noise_freesound_573577_cc0.wav');
  // Real speech and noise when ../shared/media is there, a tone in pink noise otherwise.
  const audio = existsSync(speech)
    ? ['-stream_loop', '-1', '-i', speech, '-stream_loop', '-1', '-i', noise, '-filter_complex', '[1:a]aresample=48000[s];[2:a]aresample=48000,volume=0.5[n];[s][n]amix=inputs=2:normalize=0[a]']
    : ['-f', 'lavfi', '-i', 'sine=frequency=220:sample_rate=48000', '-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.1:sample_rate=48000', '-filter_complex', '[1:a][2:a]amix=inputs=2:normalize=0[a]'];
  await run('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=640x480:rate=30:duration=${SECONDS}`, ...audio,
    '-map', '0:v', '-map', '[a]', '-t', String(SECONDS), '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', '-b:a', '128k', path,
  ]);
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function main(): Promise<void> {
  const runsArg = process.argv.indexOf('--runs');
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
  const dir = mkdtempSync(join(tmpdir(), 'vj-bench-'));
  chmodSync(dir, 0o755);
  const input = join(dir, 'clip.mp4');
  await makeClip(input);
  const stack = await startStack({ dataDir: join(dir, 'data'), durable: false, env: { LOG_LEVEL: 'warn' }, log: () => undefined });
  const auth = { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' };
  try {
    const rows: Array<{ job: number; base: number }> = [];
    for (let i = 0; i < runs; i++) {
      const upload = (await (await fetch(`${stack.apiUrl}/v1/uploads`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ file_name: 'clip.mp4', content_type: 'video/mp4', file_size: statSync(input).size }),
      })).json()) as { upload_url: string; video_url: string };
      await fetch(upload.upload_url, { method: 'PUT', body: readFileSync(input) });
      const job = await timed(async () => {
        const created = (await (await fetch(`${stack.apiUrl}/v1/clean-audio-video`, { method: 'POST', headers: auth, body: JSON.stringify({ video_url: upload.video_url }) })).json()) as { job_id: string };
        for (;;) {
          const state = (await (await fetch(`${stack.apiUrl}/v1/clean-audio-video/${created.job_id}`, { headers: auth })).json()) as { status: string };
          if (state.status === 'COMPLETED') return;
          if (state.status !== 'PROCESSING') throw new Error(`job ended ${JSON.stringify(state)}`);
          await sleep(50);
        }
      });
      const base = (await denoiseBaseline(input, { workDir: dir })).wallSeconds;
      rows.push({ job, base });
      console.log(`run ${i + 1}: job ${job.toFixed(2)} s, baseline ${base.toFixed(2)} s, ratio ${(job / base).toFixed(2)}`);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const job = median(rows.map((r) => r.job));
    const base = median(rows.map((r) => r.base));
    console.log(`\nclean-audio-video, 640x480 ${SECONDS} s H.264/AAC, median of ${runs} runs`);
    console.log(`  job (create -> COMPLETED)          ${job.toFixed(2)} s   ${(SECONDS / job).toFixed(1)}x realtime`);
    console.log(`  baseline (stream copy + denoiser)  ${base.toFixed(2)} s   ${(SECONDS / base).toFixed(1)}x realtime`);
    console.log(`  ratio job / baseline               ${(job / base).toFixed(2)}`);
  } finally {
    await stack.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
