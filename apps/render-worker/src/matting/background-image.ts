import { isUploadUrl, uploadIdOf, uploadObjectKey } from '@vj/contracts';
import type { AllowList } from '@vj/egress';
import type { ObjectStorage } from '@vj/storage';
import { JobFailure } from '../errors/job-failure';
import { fetchUpload } from '../input/fetch-upload';
import { transload } from '../input/transload';
import { TransloadError } from '../input/transload-error';
import { MediaError, ProcessFailedError, ProcessRunner, type CommandRunner } from '../media';
import { ACCEPTED_IMAGE_FORMATS, MAX_BACKGROUND_PICTURE, userImageInput } from '../media/input-fence';

export interface BackgroundImageLimits {
  maxBytes: number;
  timeoutMs: number;
  allowHosts: AllowList;
  // Where an upload:// image is read from.
  storage: Pick<ObjectStorage, 'stat' | 'downloadToFile'>;
  ffprobePath?: string;
  runner?: CommandRunner;
}

const PROBE_TIMEOUT_MS = 15_000;

// The image of a `background: { image_url }` (decision 0089): fetched like a video_url, behind the
// SSRF guard and within its own size limit, or read from the job's account's own upload (decision
// 0091); then opened only as one still PNG, JPEG or WebP of at most MAX_BACKGROUND_PICTURE. Every
// refusal names the background, not the video.
export class BackgroundImages {
  private readonly runner: CommandRunner;

  constructor(private readonly limits: BackgroundImageLimits) {
    this.runner = limits.runner ?? new ProcessRunner();
  }

  async fetch(url: string, accountId: string, destPath: string, signal: AbortSignal): Promise<void> {
    try {
      // The account is the job's own: another account's upload id names no object here.
      if (isUploadUrl(url)) await fetchUpload(this.limits.storage, { object_key: uploadObjectKey(accountId, uploadIdOf(url)) }, destPath, this.limits.maxBytes, signal);
      else await transload(url, destPath, { ...this.limits, signal });
    } catch (error) {
      if (!(error instanceof TransloadError)) throw error;
      throw new JobFailure('transload_failed', `The background image_url could not be fetched: ${error.details?.[0]?.message ?? error.message}`, [
        { type: error.rule, message: error.details?.[0]?.message ?? error.message, field: 'background' },
      ]);
    }
    await this.check(destPath, signal);
  }

  private async check(path: string, signal: AbortSignal): Promise<void> {
    const args = ['-v', 'error', ...userImageInput(path), '-select_streams', 'v:0', '-show_entries', 'stream=width,height:format=format_name', '-of', 'json'];
    let stdout: string;
    try {
      ({ stdout } = await this.runner.run({ file: this.limits.ffprobePath ?? 'ffprobe', args }, { timeoutMs: PROBE_TIMEOUT_MS, signal, stdout: 'capture' }));
    } catch (error) {
      if (error instanceof ProcessFailedError) throw refused('it is not a PNG, JPEG or WebP image');
      throw error;
    }
    const probed = JSON.parse(stdout) as { streams?: { width?: number; height?: number }[]; format?: { format_name?: string } };
    const { width = 0, height = 0 } = probed.streams?.[0] ?? {};
    if (!ACCEPTED_IMAGE_FORMATS.includes(probed.format?.format_name ?? '')) throw refused('it is not a PNG, JPEG or WebP image');
    const { maxSide, maxPixels } = MAX_BACKGROUND_PICTURE;
    if (!(width > 0 && height > 0) || width > maxSide || height > maxSide || width * height > maxPixels) {
      throw refused(`its picture (${width}x${height}) is empty or larger than ${maxSide} pixels a side`);
    }
  }
}

function refused(reason: string): MediaError {
  return new MediaError('input_validation', `The background image cannot be used: ${reason}`, [
    { type: 'invalid_background_image', message: `The background image cannot be used: ${reason}`, field: 'background' },
  ]);
}
