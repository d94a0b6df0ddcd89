import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { VideoInputV1, ProbeInputReplyV1, ProbeInputRequestV1 } from '@vj/contracts';
import type { ObjectStorage } from '@vj/storage';
import type { AllowList, ResolveHost } from '@vj/egress';
import { fetchPrefix } from '../input/fetch-prefix';
import { probeMedia, type CommandRunner } from '../media';
import { Deadline } from '../media/deadline';
import { LOCAL_FILE, PRESIGNED_URL } from '../media/input-fence';
import { jobErrorOf } from '../processing/job-error-of';
import { probedDuration } from './probed-duration';
import { ProbeSlots } from './probe-slots';
import { fileRanges, presignedUrlRanges } from './range-readers';
import { statedDuration, type ReadRange } from './stated-duration';

export interface DurationProbeSettings {
  // One limit for the whole probe: presigning or fetching, and ffprobe.
  timeoutMs: number;
  // The most bytes of a URL input fetched.
  maxBytes: number;
  // The most probes at once; the rest wait within their time limit.
  concurrency: number;
  allowHosts: AllowList;
  // Where a URL input's first bytes are kept while ffprobe reads them.
  workDir: string;
  ffprobePath: string;
  resolve?: ResolveHost;
}

// Longer than any probe: it absorbs clock skew with S3, and only this worker's ffprobe sees the URL.
const PRESIGN_TTL_SECONDS = 300;

// vj.rpc.media.v1.probe: the input's duration for the credit estimate at job create (decision 0016).
export class DurationProbe {
  private readonly logger = new Logger('DurationProbe');
  private readonly slots: ProbeSlots;

  constructor(
    private readonly storage: Pick<ObjectStorage, 'presignGet'>,
    private readonly runner: CommandRunner,
    private readonly settings: DurationProbeSettings,
    private readonly objectRanges: (url: string, signal: AbortSignal) => ReadRange = presignedUrlRanges,
  ) {
    this.slots = new ProbeSlots(settings.concurrency);
  }

  // Never throws: null whenever the duration cannot be known within the limit.
  async reply(request: ProbeInputRequestV1): Promise<ProbeInputReplyV1> {
    const input = request?.input;
    if (!isInput(input)) {
      this.logger.warn('no duration: the probe request carries no upload or url input');
      return { duration_seconds: null };
    }
    try {
      const deadline = new Deadline(this.settings.timeoutMs, 'Probing the duration');
      const seconds = input.kind === 'upload' ? await this.probeUpload(input.object_key, deadline) : await this.slots.run(deadline.remainingMs(), () => this.probeUrl(input.url, deadline));
      if (seconds === null) this.logger.debug(`no duration for ${describe(input)}: ffprobe read none that holds for the whole file`);
      return { duration_seconds: seconds };
    } catch (error) {
      const reason = expectedReason(error);
      if (reason) this.logger.debug(`no duration for ${describe(input)}: ${reason}`);
      else this.logger.warn(`no duration for ${describe(input)}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return isTimeout(error) ? { duration_seconds: null, timed_out: true } : { duration_seconds: null };
    }
  }

  // The header's stated duration, read in-process, needs no probe slot: it costs a few range reads
  // and no process. Otherwise ffprobe reads the object over HTTP with range requests, in a slot. The
  // worker has no S3_PUBLIC_ENDPOINT, so the URL is signed for S3_ENDPOINT.
  private async probeUpload(objectKey: string, deadline: Deadline): Promise<number | null> {
    const url = await this.storage.presignGet(objectKey, PRESIGN_TTL_SECONDS, 'input', 'application/octet-stream');
    const stated = await this.statedDuration(this.objectRanges(url, AbortSignal.timeout(deadline.remainingMs())));
    return stated ?? this.slots.run(deadline.remainingMs(), () => this.ffprobe(url, PRESIGNED_URL, deadline, true));
  }

  // A failed read only costs the fast path: ffprobe then tries, and says why it cannot.
  private async statedDuration(readRange: ReadRange): Promise<number | null> {
    try {
      return await statedDuration(readRange);
    } catch (error) {
      this.logger.debug(`header not read in-process: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }

  private async probeUrl(url: string, deadline: Deadline): Promise<number | null> {
    const dir = await mkdtemp(join(this.settings.workDir, 'probe-'));
    try {
      const path = join(dir, 'input');
      const { whole } = await fetchPrefix(url, path, {
        maxBytes: this.settings.maxBytes,
        signal: AbortSignal.timeout(deadline.remainingMs()),
        allowHosts: this.settings.allowHosts,
        resolve: this.settings.resolve,
      });
      // A prefix's stated duration is what ffprobe would accept from it too (probed-duration.ts).
      return (await this.statedDuration(fileRanges(path))) ?? (await this.ffprobe(path, LOCAL_FILE, deadline, whole));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  // Fenced as the jobs' own probe is (input-fence.ts): only the protocols the input needs.
  private async ffprobe(inputPath: string, protocols: readonly string[], deadline: Deadline, wholeFile: boolean): Promise<number | null> {
    const probe = await probeMedia(this.runner, {
      ffprobePath: this.settings.ffprobePath,
      inputPath,
      timeoutMs: deadline.remainingMs(),
      protocols,
    });
    return probedDuration(probe, wholeFile);
  }
}

function isInput(input: unknown): input is VideoInputV1 {
  const candidate = input as Partial<Record<string, unknown>> | null | undefined;
  return (candidate?.kind === 'upload' && typeof candidate.object_key === 'string') || (candidate?.kind === 'url' && typeof candidate.url === 'string');
}

// Logs name the upload or the URL's host only: a URL's path and query may carry credentials.
function describe(input: VideoInputV1): string {
  if (input.kind === 'upload') return `upload ${input.upload_id}`;
  return URL.canParse(input.url) ? `url on ${new URL(input.url).host}` : 'an invalid url';
}

// Why a user's input gave no duration (refused or failed fetch, unreadable file, the time limit), or
// null for our own failures, which are logged with their stack.
function expectedReason(error: unknown): string | null {
  if (isTimeout(error)) return 'the time limit passed';
  const jobError = jobErrorOf(error);
  if (!jobError) return null;
  const detail = jobError.details?.[0]?.message;
  return detail && !jobError.message.includes(detail) ? `${jobError.message}: ${detail}` : jobError.message;
}

// The probe's own limit (a slot's wait, a fetch's or ffprobe's deadline) passed: busy, not unreadable.
function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || jobErrorOf(error)?.code === 'timeout';
}
