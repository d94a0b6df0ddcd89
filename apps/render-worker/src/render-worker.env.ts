import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineEnv, env, logEnv, natsEnv, observabilityEnv, s3Env, type EnvValues } from '@vj/config';
import { DEFAULT_MAX_RESULT_BYTES } from './matting/remove-background';

export const renderWorkerEnv = defineEnv({
  ...natsEnv,
  ...s3Env,
  ...logEnv,
  ...observabilityEnv,
  WORK_DIR: env.string({ doc: 'parent folder of the per-job temporary folders (inputs and outputs)', default: tmpdir() }),
  WORKER_CONCURRENCY: env.int({ doc: 'jobs this process runs at once', default: 1, min: 1, max: 64 }),
  FFMPEG_PATH: env.string({ doc: 'ffmpeg binary', default: 'ffmpeg' }),
  FFPROBE_PATH: env.string({ doc: 'ffprobe binary', default: 'ffprobe' }),
  TRANSLOAD_MAX_BYTES: env.int({ doc: 'largest input video fetched from a video_url', default: 2 * 1024 ** 3, min: 1 }),
  // The gateway's UPLOAD_MULTIPART_MAX_BYTES: an upload it accepts is one a worker can read.
  UPLOAD_INPUT_MAX_BYTES: env.int({ doc: "largest upload copied to WORK_DIR as a job's input; WORK_DIR's disk holds it and the job's results", default: 50 * 1024 ** 3, min: 1 }),
  TRANSLOAD_TIMEOUT_SECONDS: env.int({ doc: 'time limit for fetching a video_url, redirects and body included', default: 300, min: 1 }),
  TRANSLOAD_ALLOW_HOSTS: env.string({
    doc: 'comma-separated hosts, IPs or CIDRs exempt from the private-network guard of video_url fetches',
    optional: true,
  }),
  DURATION_PROBE_TIMEOUT_MS: env.int({
    doc: "time limit of one duration probe for a credit estimate (fetch and ffprobe); past it the answer is null and billing quotes the job type's maximum duration; keep it under the gateway's ESTIMATE_PROBE_TIMEOUT_MS",
    default: 2500,
    min: 1,
  }),
  DURATION_PROBE_CONCURRENCY: env.int({
    doc: "most duration probes a worker runs at once with ffprobe or a URL's fetch; the rest wait, within DURATION_PROBE_TIMEOUT_MS (an upload whose header states its duration needs none)",
    default: 16,
    min: 1,
  }),
  DURATION_PROBE_MAX_BYTES: env.int({ doc: 'most bytes of a video_url fetched to probe its duration for a credit estimate', default: 8 * 1024 ** 2, min: 1 }),
  MODERATION_DENY_SHA256_FILE: env.string({ doc: "file of denied inputs' SHA-256 hex digests, one a line, '#' comments", optional: true }),
  CLEAN_AUDIO_MAX_SECONDS: env.int({ doc: 'longest audio a clean-audio-video job accepts (else audio_too_long)', default: 1800, min: 1 }),
  CLEAN_AUDIO_DENOISERS: env.int({
    doc: 'denoiser processes one clean-audio-video job runs at once on audio of 30 s or more, one core each (0: the cores divided by WORKER_CONCURRENCY)',
    default: 0,
    min: 0,
    max: 64,
  }),
  CLEAN_AUDIO_WARM_DENOISERS: env.int({
    doc: 'denoiser processes kept booted and waiting, so a job does not wait about 90 ms for one to start (each holds about 8 MB of its own while it waits; unset: as many as CLEAN_AUDIO_DENOISERS comes to, 0: none)',
    optional: true,
    min: 0,
    max: 64,
  }),
  BACKGROUND_REMOVAL_KEEP_MATTE: env.string({
    doc: "keep each background removal's alpha frames (lossless FFV1) and its input beside its result files, deleted with them, so POST /v1/video-background-removal/{job_id}/exports can deliver another format or background without the model; false: no exports of the jobs this worker runs",
    default: 'true',
    choices: ['true', 'false'],
  }),
  CLEAN_AUDIO_KEEP_STEMS: env.string({
    doc: "keep each clean-audio job's denoiser stems (a lossless FLAC of about 7 MB a minute, deleted with the job's files) so POST /v1/clean-audio-video/{job_id}/exports can remix them without the denoiser; false: no exports of the jobs this worker runs",
    default: 'true',
    choices: ['true', 'false'],
  }),
  CLEAN_AUDIO_TIMEOUT_SECONDS: env.int({ doc: 'processing time limit of one clean-audio-video run, fetch not included (else timeout)', default: 3600, min: 1 }),
  BACKGROUND_REMOVAL_MAX_SECONDS: env.int({ doc: 'longest video a video-background-removal job accepts (else input_validation); past BACKGROUND_REMOVAL_SEGMENT_AFTER_SECONDS it is run in segments (decision 0101)', default: 600, min: 1 }),
  BACKGROUND_IMAGE_MAX_BYTES: env.int({
    doc: "largest image fetched or read from an upload for a background removal's background.image_url (else transload_failed); a URL is fetched with TRANSLOAD_TIMEOUT_SECONDS and TRANSLOAD_ALLOW_HOSTS",
    default: 25 * 1024 ** 2,
    min: 1024,
  }),
  BACKGROUND_REMOVAL_MAX_RESULT_BYTES: env.int({
    doc: 'size at which a video-background-removal result file is cut off and the job fails with input_validation (a prores or png_sequence job estimated past it is refused before it runs); keep one input (TRANSLOAD_MAX_BYTES) and this within WORK_DIR\'s disk',
    default: DEFAULT_MAX_RESULT_BYTES,
    min: 1024 ** 2,
  }),
  BACKGROUND_REMOVAL_SEGMENT_AFTER_SECONDS: env.int({
    doc: 'a video-background-removal input longer than this is cut into segments that every render worker takes a share of (decision 0101); at or above BACKGROUND_REMOVAL_MAX_SECONDS, never',
    default: 60,
    min: 1,
  }),
  BACKGROUND_REMOVAL_SEGMENT_SECONDS: env.int({ doc: 'length of the segments a long video-background-removal input is cut into, at its keyframes (decision 0101)', default: 20, min: 2 }),
  BACKGROUND_REMOVAL_WARMUP_SECONDS: env.int({ doc: 'seconds matted before each segment and not delivered, so its tracking and smoothing carry over the boundary (decision 0100)', default: 4, min: 0 }),
  BACKGROUND_REMOVAL_TIMEOUT_SECONDS: env.int({ doc: 'processing time limit of one video-background-removal run, fetch not included (else timeout)', default: 1800, min: 1 }),
  MATTING_MODEL_CACHE_DIR: env.string({ doc: 'folder where the person model, converted from TFLite to ONNX on first start, is kept', default: join(tmpdir(), 'vj-models') }),
  MATTING_MODELS_FILE: env.string({ doc: 'JSON file declaring extra ONNX matting models (a "general" one for subject_is_person: false); see docs/matting-models.md', optional: true }),
  ONNX_EXECUTION_PROVIDERS: env.string({ doc: 'ONNX Runtime execution providers in order of preference, comma-separated; cpu is always the last resort; `webgpu,cpu` on a GPU node (docs/matting-models.md)', default: 'cuda,cpu' }),
  ONNX_INTRA_OP_THREADS: env.int({ doc: 'threads one model run may use (0: ONNX Runtime decides); ffmpeg needs the other cores', default: 1, min: 0, max: 256 }),
  WORK_MAX_ATTEMPTS: env.int({ doc: 'processing attempts that may fail for a reason of ours before the job fails with generation_failed; shutdowns, lost workers and outages of our services are not attempts', default: 3, min: 1 }),
  WORK_MAX_DELIVER: env.int({
    doc: 'deliveries of a work message, for any reason, before the job fails with generation_failed: a backstop against a job that kills its worker every time',
    default: 20,
    min: 1,
  }),
  WORK_ACK_WAIT_SECONDS: env.int({ doc: 'JetStream ack wait of the work consumer; keep-alives are sent every third of it', default: 30, min: 1 }),
});

export type RenderWorkerConfig = EnvValues<typeof renderWorkerEnv.variables>;
