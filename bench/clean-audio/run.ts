import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runBench, withBenchStack } from '../support/bench-stack';
import { denoiseBaseline } from './denoise-baseline';
import { median } from '../support/stats';

// bench/clean-audio: a 640x480, 60 s clip through the whole stack (create -> COMPLETED), next to a
// baseline measured in the same run: plain ffmpeg stream copy of the picture plus the denoiser alone;
// then an export of each job at another strength (decision 0093), against the job it came from.
// Prints times, their ratios and x-realtime. Usage: npm run bench:clean-audio [-- --runs 3]

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

// Prefer: wait answers once the job has ended: no polling load on the cores the job runs on.
async function completed(url: string, headers: Record<string, string>, body: object): Promise<string> {
  const response = await fetch(url, { method: 'POST', headers: { ...headers, prefer: 'wait=60' }, body: JSON.stringify(body) });
  const state = (await response.json()) as { status: string; job_id: string };
  if (state.status !== 'COMPLETED') throw new Error(`job not completed after its wait: ${JSON.stringify(state)}`);
  return state.job_id;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function main(): Promise<void> {
  const runsArg = process.argv.indexOf('--runs');
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
  await withBenchStack({}, async ({ stack, dir, headers, upload }) => {
    const input = join(dir, 'clip.mp4');
    await makeClip(input);
    const rows: Array<{ job: number; base: number; exported: number }> = [];
    for (let i = 0; i < runs; i++) {
      const videoUrl = await upload(input);
      let jobId = '';
      const job = await timed(async () => (jobId = await completed(`${stack.apiUrl}/v1/clean-audio-video`, headers, { video_url: videoUrl })));
      const exported = await timed(() => completed(`${stack.apiUrl}/v1/clean-audio-video/${jobId}/exports`, headers, { strength: 0.5 }));
      const base = (await denoiseBaseline(input, { workDir: dir })).wallSeconds;
      rows.push({ job, base, exported });
      console.log(`run ${i + 1}: job ${job.toFixed(2)} s, baseline ${base.toFixed(2)} s, ratio ${(job / base).toFixed(2)}; export ${exported.toFixed(2)} s, ${(exported / job).toFixed(2)} of the job`);
    }
    const job = median(rows.map((r) => r.job));
    const base = median(rows.map((r) => r.base));
    const exported = median(rows.map((r) => r.exported));
    console.log(`\nclean-audio-video, 640x480 ${SECONDS} s H.264/AAC, median of ${runs} runs`);
    console.log(`  job (create -> COMPLETED)          ${job.toFixed(2)} s   ${(SECONDS / job).toFixed(1)}x realtime`);
    console.log(`  baseline (stream copy + denoiser)  ${base.toFixed(2)} s   ${(SECONDS / base).toFixed(1)}x realtime`);
    console.log(`  ratio job / baseline               ${(job / base).toFixed(2)}`);
    console.log(`  export at strength 0.5             ${exported.toFixed(2)} s   ${(SECONDS / exported).toFixed(1)}x realtime, ${(exported / job).toFixed(2)} of the job`);
  });
}

runBench(main);
