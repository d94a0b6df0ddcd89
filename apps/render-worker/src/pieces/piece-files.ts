import { piecePrefix, type SegmentOutputV1 } from '@vj/contracts';
import type { MattedVideo } from '../matting/remove-background';

// The keys of what a long job's pieces hand on (decision 0101), under piecePrefix.
export function pieceKeys(job: { account_id: string; job_id: string }) {
  const prefix = piecePrefix(job.account_id, job.job_id);
  return {
    prefix,
    input: `${prefix}input`,
    plate: (index: number) => `${prefix}plate-${index}`,
    file: (index: number, file: Pick<MattedVideo['files'][number], 'role' | 'fileExtension'>) => `${prefix}${index}/${file.role}.${file.fileExtension}`,
    keptMatte: (index: number) => `${prefix}${index}/kept-matte.mkv`,
  };
}

// A matted segment as the join will read it, its files stored at `keys`, in its order, and its kept
// matte at keptMatteKey (null: none kept).
export function segmentOutput(matted: MattedVideo, keys: readonly string[], keptMatteKey: string | null): SegmentOutputV1 {
  const { quality } = matted;
  return {
    files: matted.files.map((file, index) => ({ role: file.role, object_key: keys[index]!, content_type: file.contentType, file_extension: file.fileExtension })),
    duration_seconds: matted.durationSeconds,
    frames: matted.frames,
    frame_rate: matted.frameRate,
    width: matted.width,
    height: matted.height,
    quality: quality ? { frames: quality.frames, frames_with_person: quality.framesWithPerson, flicker: quality.flicker, still_samples: quality.stillSamples } : null,
    kept_matte_key: keptMatteKey,
  };
}

// A stored segment downloaded: its files at `paths`, in its order.
export function mattedSegment(output: SegmentOutputV1, paths: readonly string[]): MattedVideo {
  const { quality } = output;
  return {
    files: output.files.map((file, index) => ({ path: paths[index]!, role: file.role, contentType: file.content_type, fileExtension: file.file_extension })),
    durationSeconds: output.duration_seconds,
    frames: output.frames,
    frameRate: output.frame_rate,
    width: output.width,
    height: output.height,
    ...(quality && { quality: { frames: quality.frames, framesWithPerson: quality.frames_with_person, flicker: quality.flicker, stillSamples: quality.still_samples } }),
  };
}
