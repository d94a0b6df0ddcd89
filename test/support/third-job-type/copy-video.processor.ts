import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { JobType } from '@vj/contracts';
import { MediaError } from '../../../apps/render-worker/src/media/media-error';
import type { JobProcessorFactory } from '../../../apps/render-worker/src/processing/job-processors';
import type { JobTypeProcessor, MeasuredInput } from '../../../apps/render-worker/src/processing/ports';
import { COPY_VIDEO_TYPE, type CopyVideoOptions } from './copy-video.definition';

const run = promisify(execFile);

// The worker's part of the test-only type: the input's streams copied into an MP4, its index moved to
// the front when `faststart` is on.
export const copyVideoProcessor: JobProcessorFactory = ({ ffmpegPath }): JobTypeProcessor<JobType> => ({
  timeLimitMs: 60_000,
  maxSeconds: COPY_VIDEO_TYPE.price.max_duration_seconds,
  refusal: ({ seconds }: MeasuredInput) => (seconds <= COPY_VIDEO_TYPE.price.max_duration_seconds ? null : new MediaError('input_validation', `The video is longer than ${COPY_VIDEO_TYPE.price.max_duration_seconds} seconds`)),
  run: async ({ job, inputPath, workDir, signal }) => {
    const options = { ...COPY_VIDEO_TYPE.defaults, ...(job.options as Partial<CopyVideoOptions>) };
    const path = join(workDir, 'copy.mp4');
    await run(ffmpegPath, ['-v', 'error', '-y', '-i', inputPath, '-map', '0', '-c', 'copy', ...(options.faststart ? ['-movflags', '+faststart'] : []), path], { signal });
    return { files: [{ path, fileName: 'copy.mp4', contentType: 'video/mp4' }], durationSeconds: 0 };
  },
});
