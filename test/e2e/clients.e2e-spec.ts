import { execFile, spawn } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { schemaViolations } from '@vj/http-contracts';
import { VideoJobs, type CleanAudioVideoJob } from '@vj/sdk';
import { REPO_ROOT } from '../../scripts/stack/service-process';
import { useE2eStack } from '../support/e2e-stack';
import { generateVideo, probeStreams, videoPacketHashes } from '../support/media-tools';

const VJ = join(REPO_ROOT, 'apps', 'cli', 'bin', 'vj.cjs');

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

// The SDK and the CLI as a user runs them, against npm start's services.
describe('clients: the SDK and the vj CLI, end to end', () => {
  // Parts of S3's smallest size, so a few MiB of video make several.
  const e2e = useE2eStack('e2e-clients', { UPLOAD_PART_BYTES: String(5 * 1024 ** 2) });
  const sdk = () => new VideoJobs({ apiKey: e2e.stack.apiKey, baseUrl: e2e.stack.apiUrl });
  const env = (extra: NodeJS.ProcessEnv = {}) => ({ ...process.env, VJ_API_KEY: e2e.stack.apiKey, VJ_API_URL: e2e.stack.apiUrl, VJ_CONFIG: join(e2e.dir, 'no-config.json'), ...extra });
  const vj = (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliRun> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [VJ, ...args], { env: env(extra), cwd: e2e.dir });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  const clip = async (name: string, seconds = 2) => {
    const path = join(e2e.dir, name);
    await generateVideo(path, { codec: 'h264', seconds, audio: true, size: '160x120' });
    return path;
  };

  // Decision 0099: parts in parallel, and a resume that sends only what the failed upload did not store.
  it('SDK: uploads a file in parts; one that fails on a part is resumed by its upload_id, sending only the missing parts', async () => {
    const input = join(e2e.dir, 'sdk-parts.mp4');
    await generateVideo(input, { codec: 'h264', seconds: 4, audio: true, size: '1280x720', lossless: true });
    const size = statSync(input).size;
    // A storage connection that always drops on part 2.
    const flaky: typeof fetch = (url, init) => (String(url).includes('partNumber=2') ? Promise.reject(new TypeError('fetch failed')) : fetch(url, init));
    let started: { upload_id: string; video_url: string } | undefined;
    const failed = await new VideoJobs({ apiKey: e2e.stack.apiKey, baseUrl: e2e.stack.apiUrl, fetch: flaky, retry: { baseDelayMs: 10 } })
      .uploads.upload(input, { multipart: true, onStart: (upload) => (started = upload) })
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: 'upload_failed', message: expect.stringContaining('part 2') });
    const state = await sdk().uploads.get(started!.upload_id);
    expect(state.status).toBe('pending');
    expect(state.parts_uploaded.map((part) => part.part_number)).not.toContain(2);
    const progress: number[] = [];
    const sentParts: string[] = [];
    const watching: typeof fetch = (url, init) => {
      if (String(url).includes('partNumber=')) sentParts.push(new URL(String(url)).searchParams.get('partNumber')!);
      return fetch(url, init);
    };
    const resumed = await new VideoJobs({ apiKey: e2e.stack.apiKey, baseUrl: e2e.stack.apiUrl, fetch: watching }).uploads.resume(started!.upload_id, input, { onProgress: (sent) => progress.push(sent) });
    expect(resumed.status).toBe('complete');
    expect(sentParts).toEqual(['2']);
    // Bytes confirmed: what was stored before, then all of it.
    expect(progress).toEqual([state.parts_uploaded.reduce((sum, part) => sum + part.size, 0), size]);
    const job = await sdk().jobs.wait<CleanAudioVideoJob>(await sdk().cleanAudioVideo.create({ video_url: started!.video_url }));
    expect(job.status).toBe('COMPLETED');
  });

  it('SDK: uploads a file as a stream, creates, follows progress to 1, downloads, lists, and replays an Idempotency-Key', async () => {
    const client = sdk();
    const input = await clip('sdk.mp4');
    const uploaded: number[] = [];
    const upload = await client.uploads.upload(input, { onProgress: (sent) => uploaded.push(sent) });
    expect(uploaded.at(-1)).toBe(statSync(input).size);
    const created = await client.cleanAudioVideo.create({ video_url: upload.video_url, target_lufs: -18 }, { idempotencyKey: 'sdk-e2e-1' });
    const again = await client.cleanAudioVideo.create({ video_url: upload.video_url, target_lufs: -18 }, { idempotencyKey: 'sdk-e2e-1' });
    expect(again.job_id).toBe(created.job_id);
    const progress: number[] = [];
    const job = await client.jobs.wait<CleanAudioVideoJob>(created, { onProgress: (p) => progress.push(p.progress) });
    expect(schemaViolations('CleanAudioVideoJob', job)).toEqual([]);
    expect(job.status).toBe('COMPLETED');
    expect(progress.at(-1)).toBe(1);
    const output = join(e2e.dir, 'sdk-clean.mp4');
    await client.download(job.result!.video, output);
    expect(statSync(output).size).toBe(job.result!.video.file_size);
    expect(await videoPacketHashes(output)).toEqual(await videoPacketHashes(input));
    const listed = [];
    for await (const item of client.jobs.list({ type: 'clean-audio-video' })) listed.push(item.job_id);
    expect(listed).toContain(job.job_id);
    // Exports (decision 0093): the SDK's, then the CLI's, each a new job remixing the kept stems.
    const exported = await client.jobs.wait<CleanAudioVideoJob>(await client.cleanAudioVideo.export(job.job_id, { strength: 0.3 }));
    expect(exported).toMatchObject({ status: 'COMPLETED', result: { video: { content_type: 'video/mp4' } } });
    expect(exported.job_id).not.toBe(job.job_id);
    const cli = await vj(['export', job.job_id, '-o', 'exported.mp4', '--strength', '0.5']);
    expect({ code: cli.code, stdout: cli.stdout.trim() }).toEqual({ code: 0, stdout: 'wrote exported.mp4' });
    expect(await videoPacketHashes(join(e2e.dir, 'exported.mp4'))).toEqual(await videoPacketHashes(input));
    // The quality report (decision 0096): the SDK's by the job's id alone, then the CLI's, plain and JSON.
    const quality = await client.cleanAudioVideo.report(job.job_id);
    expect(await client.jobs.report(job.job_id)).toEqual(quality);
    expect(schemaViolations('CleanAudioVideoReport', quality)).toEqual([]);
    const shown = await vj(['report', job.job_id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^input {3}loudness -?\d+\.\d LUFS, true peak -?\d+\.\d dBTP, noise floor (-?\d+\.\d dBFS|silent)$/m);
    expect(shown.stdout).toContain(`picture copied bit for bit (sha256 ${quality.picture.output_sha256})`);
    expect(JSON.parse((await vj(['--json', 'report', job.job_id])).stdout)).toEqual(quality);
    expect((await client.billing.balance()).available).toBeGreaterThan(0);
    await expect(new VideoJobs({ apiKey: 'vj_wrong', baseUrl: e2e.stack.apiUrl }).billing.balance()).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });
  });

  it('CLI: cleans a real file with one command, plain progress lines when not on a terminal, exit 0', async () => {
    const input = await clip('talk.mp4');
    const run = await vj(['clean-audio', input, '-o', 'clean.mp4', '--strength', '0.7', '--target-lufs', '-18']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(`wrote clean.mp4`);
    expect(run.stderr).toMatch(/^upload 100%$/m);
    expect(run.stderr).toMatch(/^processing 100%/m);
    expect(run.stderr).toMatch(/COMPLETED, \d+ credits charged/);
    const output = join(e2e.dir, 'clean.mp4');
    expect(await videoPacketHashes(output)).toEqual(await videoPacketHashes(input));
    expect((await probeStreams(output)).audio).toEqual([expect.objectContaining({ codec_name: 'aac', sample_rate: '48000', channels: 1 })]);
  });

  it('CLI: cuts out a person as h264 picture + matte with --json, and draws progress bars on a terminal', async () => {
    const input = await clip('person.mp4', 1);
    // `script` gives the CLI a terminal, as a person has.
    const command = [process.execPath, VJ, 'remove-background', input, '-o', 'cutout.mp4', '--codec', 'h264'].map((part) => `'${part}'`).join(' ');
    const tty = await promisify(execFile)('script', ['-qec', command, '/dev/null'], { env: env(), cwd: e2e.dir });
    expect(tty.stdout).toMatch(/processing\s*\|[█░]+\| 100%/);
    expect(existsSync(join(e2e.dir, 'cutout.mp4'))).toBe(true);

    const json = await vj(['--json', 'remove-background', input, '-o', 'cutout2.mp4', '--codec', 'h264']);
    expect(json.code).toBe(0);
    expect(json.stderr).toBe('');
    const outcome = JSON.parse(json.stdout) as { job: { status: string; result: { files: unknown[] } }; outputs: string[] };
    expect(outcome.job.status).toBe('COMPLETED');
    expect(outcome.outputs).toHaveLength(2);
    for (const path of outcome.outputs) expect(statSync(join(e2e.dir, path)).size).toBeGreaterThan(0);
  });

  it('CLI: puts a person on a colour and on an image file (uploaded first) with --background, and writes a PNG sequence with --codec png_sequence', async () => {
    const input = await clip('person-on-green.mp4', 1);
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x0000ff:s=320x180', '-frames:v', '1', join(e2e.dir, 'sky.png')]);
    for (const [args, output] of [
      [['--background', '#00ff00'], 'on-green.mp4'],
      [['--background', 'sky.png'], 'on-sky.mp4'],
      [['--codec', 'png_sequence'], 'frames.zip'],
    ] as const) {
      const run = await vj(['--json', 'remove-background', input, '-o', output, ...args]);
      expect(run.code).toBe(0);
      expect((JSON.parse(run.stdout) as { outputs: string[] }).outputs).toEqual([output]);
      expect(statSync(join(e2e.dir, output)).size).toBeGreaterThan(0);
    }
    // The picture's corner is behind nobody: the uploaded image's blue there (H.264's 4:2:0 blurs it a little).
    const { stdout: corner } = await promisify(execFile)('ffmpeg', ['-v', 'error', '-i', join(e2e.dir, 'on-sky.mp4'), '-frames:v', '1', '-vf', 'crop=8:8:0:0', '-pix_fmt', 'rgb24', '-f', 'rawvideo', '-'], { encoding: 'buffer' });
    const [red, green, blue] = [0, 1, 2].map((channel) => corner.reduce((sum: number, value: number, index: number) => (index % 3 === channel ? sum + value : sum), 0) / (corner.length / 3));
    expect(blue).toBeGreaterThan(200);
    expect(Math.max(red as number, green as number)).toBeLessThan(60);
    const wrong = await vj(['remove-background', input, '-o', 'never.mp4', '--background', 'green']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/#RRGGBB/);
  });

  it('CLI: lists and shows jobs, the balance and the usage as CSV; exit codes say what went wrong', async () => {
    const list = await vj(['--json', 'jobs', 'list', '--limit', '3']);
    expect(list.code).toBe(0);
    const jobs = JSON.parse(list.stdout) as { job_id: string }[];
    expect(jobs.length).toBeGreaterThan(0);
    const shown = await vj(['--json', 'jobs', 'get', jobs[0]!.job_id]);
    expect(JSON.parse(shown.stdout)).toMatchObject({ job_id: jobs[0]!.job_id });
    expect((await vj(['balance'])).stdout).toMatch(/^balance \d+, held \d+, available \d+$/m);
    const csv = await vj(['usage', '--csv']);
    expect(csv.code).toBe(0);
    expect(csv.stdout.split('\n')[0]).toContain('credits');

    const notAVideo = join(e2e.dir, 'notes.mp4');
    writeFileSync(notAVideo, 'these are not frames');
    const failed = await vj(['clean-audio', notAVideo, '-o', 'never.mp4']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/invalid_file/);
    expect((await vj(['balance'], { VJ_API_KEY: 'vj_wrong' })).code).toBe(3);
    const noKey = await vj(['balance'], { VJ_API_KEY: '' });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/no API key/);
    expect((await vj(['clean-audio'])).code).toBe(2);
    expect((await vj(['balance'], { VJ_API_URL: 'http://127.0.0.1:9' })).code).toBe(4);
  });
});
