import { existsSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { VideoJobs, type Job, type JobReport, type JobStatus, type JobType } from '@vj/sdk';
import { configDir, loadConfig } from './config';
import { PendingUploads } from './pending-uploads';
import { describeError, EXIT, exitCodeOf } from './exit-codes';
import { progressView } from './progress-view';
import { followAndDownload, runJob, type RunOutcome } from './run-job';

const JOB_TYPES: JobType[] = ['clean-audio-video', 'video-background-removal'];
const STATUSES: JobStatus[] = ['PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED'];

type BackgroundOption = { color: string } | { blur: number } | { image_url: string } | { image_file: string };

// --background: a colour (#RRGGBB), blur or blur:0..1 (blur alone: 0.5), an image's http(s) URL (the API
// checks the URL itself), or an image file, uploaded before the job is created.
function background(value: string): BackgroundOption {
  if (/^#[0-9A-Fa-f]{6}$/.test(value)) return { color: value };
  if (/^https?:\/\//i.test(value)) return { image_url: value };
  const blur = /^blur(?::(\d*\.?\d+))?$/.exec(value);
  const strength = blur ? Number(blur[1] ?? 0.5) : NaN;
  if (strength >= 0 && strength <= 1) return { blur: strength };
  if (/\.(png|jpe?g|webp)$/i.test(value) && existsSync(value)) return { image_file: value };
  throw new InvalidArgumentError("a colour #RRGGBB, blur[:0..1], an image's http(s) URL, or a PNG, JPEG or WebP file");
}

// An image file becomes the upload:// URL of its upload.
async function backgroundOf(option: BackgroundOption): Promise<{ color: string } | { blur: number } | { image_url: string }> {
  if (!('image_file' in option)) return option;
  return { image_url: (await client().uploads.upload(option.image_file)).video_url };
}

interface CleanAudioFlags {
  strength?: number;
  targetLufs?: number;
  normalize: boolean;
}

// The flags given, as the API's options: one left out is the API's default (an export's: its source's).
function cleanAudioOptions(flags: CleanAudioFlags): { strength?: number; target_lufs?: number; normalize_loudness?: false } {
  return {
    ...(flags.strength !== undefined && { strength: flags.strength }),
    ...(flags.targetLufs !== undefined && { target_lufs: flags.targetLufs }),
    ...(!flags.normalize && { normalize_loudness: false as const }),
  };
}

function number(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new InvalidArgumentError('not a number');
  return parsed;
}

interface Globals {
  json?: boolean;
  apiUrl?: string;
}

const RESUME_HELP = 'send only what an earlier run left unsent of this same file (a file over 64 MiB goes up in parts, remembered in uploads.json beside the config)';

const program = new Command('vj')
  .description('Clean the audio of a video or cut out the person in it, with the video jobs API.\nThe API key comes from VJ_API_KEY or ~/.config/vj/config.json ({ "api_key": ... }).')
  .option('--json', 'print the result as JSON on stdout (no progress output)')
  .option('--api-url <url>', 'the API (VJ_API_URL; default http://localhost:3000)')
  .showHelpAfterError()
  .exitOverride();

const globals = () => program.opts<Globals>();
const client = () => {
  const config = loadConfig(process.env, globals().apiUrl);
  return new VideoJobs({ apiKey: config.apiKey, baseUrl: config.apiUrl });
};
const view = () => progressView(process.stderr, globals().json ? 'quiet' : process.stderr.isTTY ? 'tty' : 'plain');
const print = (value: unknown, text: () => string) => process.stdout.write(globals().json ? `${JSON.stringify(value, null, 2)}\n` : `${text()}\n`);

async function runAndReport(type: JobType, input: string, output: string, options: Record<string, unknown>, resume: boolean): Promise<void> {
  const sdk = client();
  const plan = { pending: new PendingUploads(configDir(process.env)), apiUrl: loadConfig(process.env, globals().apiUrl).apiUrl, resume };
  await report((progress) => runJob(sdk, type === 'clean-audio-video' ? sdk.cleanAudioVideo : sdk.videoBackgroundRemoval, input, output, options, progress, plan));
}

// Runs one job with the progress view, then prints what it wrote.
async function report(run: (progress: ReturnType<typeof view>) => Promise<RunOutcome>): Promise<void> {
  const progress = view();
  try {
    const outcome = await run(progress);
    progress.stop();
    print(outcome, () => outcome.outputs.map((path) => `wrote ${path}`).join('\n'));
  } finally {
    progress.stop();
  }
}

program
  .command('clean-audio')
  .description('replace the audio of a video by a denoised 48 kHz mono track; the picture is copied bit for bit')
  .argument('<input>', 'a video file, or an http(s) URL')
  .requiredOption('-o, --output <path>', 'where to write the cleaned video')
  .option('--strength <0..1>', 'how much noise to remove', number)
  .option('--target-lufs <lufs>', 'loudness to normalize to (-40 to -8)', number)
  .option('--no-normalize', 'keep the loudness as it is')
  .option('--resume', RESUME_HELP)
  .action(async (input: string, options: CleanAudioFlags & { output: string; resume?: boolean }) => {
    await runAndReport('clean-audio-video', input, options.output, cleanAudioOptions(options), options.resume === true);
  });

program
  .command('remove-background')
  .description(
    'cut the person out: a VP9 WebM with alpha, (--codec h264) an H.264 picture plus its alpha matte beside it, (--codec prores) a ProRes 4444 MOV with alpha, or (--codec png_sequence) a ZIP of RGBA PNGs and the sound as WAV, both for editing suites; or (--background) put the person on a colour, on the picture blurred or on an image, one MP4',
  )
  .argument('<input>', 'a video file, or an http(s) URL')
  .requiredOption('-o, --output <path>', 'where to write the cut-out (the matte goes beside it under its own name)')
  .addOption(new Option('--codec <codec>', 'output codec').choices(['vp9', 'h264', 'prores', 'png_sequence']))
  .option('--refine', 'refine the edges (slower)')
  .option('--background <background>', "a colour '#RRGGBB', blur[:0..1] (the picture blurred behind the person), or an image (PNG, JPEG or WebP, scaled to cover): an http(s) URL or a file, uploaded first", background)
  .option('--resume', RESUME_HELP)
  .action(async (input: string, options: { output: string; codec?: 'vp9' | 'h264' | 'prores' | 'png_sequence'; refine?: boolean; background?: BackgroundOption; resume?: boolean }) => {
    const jobOptions = {
      ...(options.codec && { output_codec: options.codec }),
      ...(options.background && { background: await backgroundOf(options.background) }),
      ...(options.refine && { refine_foreground_edges: true }),
    };
    await runAndReport('video-background-removal', input, options.output, jobOptions, options.resume === true);
  });

program
  .command('export')
  .description(
    "deliver a COMPLETED job again without running the model, as a new job at the export price: clean audio at another strength or loudness (from its kept stems), a background removal in another format or on a background (from its kept matte)",
  )
  .argument('<job_id>', 'the COMPLETED job')
  .requiredOption('-o, --output <path>', 'where to write the result (a matte goes beside it under its own name)')
  .option('--strength <0..1>', "clean audio: how much noise to remove (default: the job's)", number)
  .option('--target-lufs <lufs>', "clean audio: loudness to normalize to, -40 to -8 (default: the job's)", number)
  .option('--no-normalize', "clean audio: keep the source's own loudness")
  .addOption(new Option('--codec <codec>', 'background removal: output codec (default vp9)').choices(['vp9', 'h264', 'prores', 'png_sequence']))
  .option('--background <background>', "background removal: a colour '#RRGGBB', blur[:0..1], or an image's http(s) URL or file", background)
  .action(async (jobId: string, options: CleanAudioFlags & { output: string; codec?: 'vp9' | 'h264' | 'prores' | 'png_sequence'; background?: BackgroundOption }) => {
    const sdk = client();
    const cutout = options.codec !== undefined || options.background !== undefined;
    const body = cutout ? { ...(options.codec && { output_codec: options.codec }), ...(options.background && { background: await backgroundOf(options.background) }) } : cleanAudioOptions(options);
    await report(async (progress) => followAndDownload(sdk, await sdk.jobs.export(jobId, body), options.output, progress));
  });

program
  .command('report')
  .description("a COMPLETED job's quality report: clean audio's loudness, true peak and noise floor before and after and whether the picture was copied bit for bit; a background removal's frames with a person and the matte's flicker")
  .argument('<job_id>', 'the COMPLETED job')
  .action(async (jobId: string) => {
    const quality = await client().jobs.report(jobId);
    print(quality, () => reportLines(quality).join('\n'));
  });

const jobs = program.command('jobs').description('list, show or cancel jobs');
jobs
  .command('list')
  .addOption(new Option('--type <type>').choices(JOB_TYPES))
  .addOption(new Option('--status <status>').choices(STATUSES))
  .option('--limit <n>', 'how many, newest first', number, 20)
  .action(async (options: { type?: JobType; status?: JobStatus; limit: number }) => {
    const found: (Job & { type: JobType; created_at: string })[] = [];
    for await (const job of client().jobs.list({ type: options.type, status: options.status, pageSize: Math.min(options.limit, 100) })) {
      found.push(job);
      if (found.length >= options.limit) break;
    }
    print(found, () => found.map((job) => `${job.job_id}  ${job.type.padEnd(24)} ${job.status.padEnd(10)} ${job.created_at}`).join('\n') || 'no jobs');
  });
jobs
  .command('get')
  .argument('<job_id>')
  .action(async (jobId: string) => {
    const job = await client().jobs.get(jobId);
    print(job, () => JSON.stringify(job, null, 2));
  });
jobs
  .command('cancel')
  .argument('<job_id>')
  .action(async (jobId: string) => {
    const job = await client().jobs.cancel(jobId);
    print(job, () => `job ${job.job_id} ${job.status}`);
  });

program
  .command('balance')
  .description('credits: balance, held for running jobs, available')
  .action(async () => {
    const balance = await client().billing.balance();
    print(balance, () => `balance ${balance.balance}, held ${balance.held}, available ${balance.available}`);
  });

program
  .command('usage')
  .description('charged jobs per day (or per job type)')
  .option('--csv', 'CSV: a header, one row per day or type, then a total line')
  .option('--from <iso>', 'start (default: 30 days ago)')
  .option('--to <iso>', 'end (default: now)')
  .addOption(new Option('--group-by <group>').choices(['day', 'job_type']))
  .action(async (options: { csv?: boolean; from?: string; to?: string; groupBy?: 'day' | 'job_type' }) => {
    const billing = client().billing;
    if (options.csv) return void process.stdout.write(await billing.usageCsv(options));
    const report = await billing.usage(options);
    print(report, () => [...report.rows.map((row) => `${row.day ?? row.job_type}  ${row.jobs} jobs  ${row.billed_seconds} s  ${row.credits} credits`), `total  ${report.totals.jobs} jobs  ${report.totals.credits} credits`].join('\n'));
  });

function reportLines(quality: JobReport): string[] {
  if ('frames' in quality) {
    return [`frames ${quality.frames}, with a person ${quality.frames_with_person} (${(100 * quality.person_frame_share).toFixed(1)} %), flicker ${quality.flicker.toFixed(5)}`];
  }
  const level = (value: number | null, unit: string): string => (value === null ? 'silent' : `${value.toFixed(1)} ${unit}`);
  const audio = (name: string, figures: typeof quality.input): string =>
    `${name.padEnd(7)} loudness ${level(figures.integrated_lufs, 'LUFS')}, true peak ${level(figures.true_peak_dbtp, 'dBTP')}, noise floor ${level(figures.noise_floor_dbfs, 'dBFS')}`;
  const { picture } = quality;
  return [
    audio('input', quality.input),
    audio('output', quality.output),
    quality.audio_offset_ms === null ? 'audio offset not measurable (silence, a steady tone, or an export: see its source job)' : `audio offset ${quality.audio_offset_ms} ms`,
    picture.identical ? `picture copied bit for bit (sha256 ${picture.output_sha256})` : `picture CHANGED: source sha256 ${picture.source_sha256}, output ${picture.output_sha256}`,
  ];
}

async function main(): Promise<void> {
  try {
    await program.parseAsync(process.argv);
    process.exitCode = EXIT.ok;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return;
    if (typeof code === 'string' && code.startsWith('commander.')) {
      process.exitCode = EXIT.usage;
      return;
    }
    process.stderr.write(`vj: ${describeError(error)}\n`);
    process.exitCode = exitCodeOf(error);
  }
}

void main();
