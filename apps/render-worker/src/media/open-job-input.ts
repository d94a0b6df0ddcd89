import { mkdir } from 'node:fs/promises';
import type { Deadline } from './deadline';
import { MAX_DECODED_PICTURE, type PictureLimit } from './input-fence';
import { pictureOverLimit } from './input-refusal';
import { throwIfAborted } from './media-error';
import type { MediaProbe } from './parse-probe';
import { probeMedia } from './probe';
import type { CommandRunner } from './process-runner';
import { stillImage, stillImageReason } from './still-image';

export interface JobInputFiles {
  inputPath: string;
  workDir: string;
  ffprobePath?: string;
  signal?: AbortSignal;
  // The largest picture the job accepts (at most MAX_DECODED_PICTURE, which every decoder gets).
  pictureLimit?: PictureLimit;
  // The same fenced probe of this file, taken already (when it was measured): not run again.
  probe?: MediaProbe;
}

// How every media job begins: nothing once cancelled, then its scratch folder, then the input's probe
// within the job's own time limit, fenced (input-fence.ts), unless the worker probed it already. A
// still image, or a picture larger than the job accepts, goes no further: nothing is decoded past the
// probe's first frame.
export async function openJobInput(runner: CommandRunner, files: JobInputFiles, deadline: Deadline): Promise<MediaProbe> {
  throwIfAborted(files.signal);
  await mkdir(files.workDir, { recursive: true });
  const probe =
    files.probe ??
    (await probeMedia(runner, {
    ffprobePath: files.ffprobePath ?? 'ffprobe',
    inputPath: files.inputPath,
    timeoutMs: deadline.remainingMs(),
    signal: files.signal,
    pictureLimit: files.pictureLimit,
  }));
  if (probe.video) {
    const still = stillImageReason(probe.video);
    if (still) throw stillImage(still);
    const tooLarge = pictureOverLimit(probe.video, files.pictureLimit ?? MAX_DECODED_PICTURE);
    if (tooLarge) throw tooLarge;
  }
  return probe;
}
