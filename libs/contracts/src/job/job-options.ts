import type { CleanAudioVideoOptions } from '../job-types/clean-audio-video';
import type { VideoBackgroundRemovalOptions } from '../job-types/video-background-removal';

// Job options after defaults are applied (docs/spec/api-v1.md, "Job types and their inputs"), by job
// type: one line for each type (its options and their defaults are in its own file under job-types/).

// The job an export remixes or re-encodes, from its options; undefined for a job of its own.
export function exportOf(options: object): string | undefined {
  const value = (options as { export_of?: unknown }).export_of;
  return typeof value === 'string' ? value : undefined;
}

export interface JobOptionsByType {
  'video-background-removal': VideoBackgroundRemovalOptions;
  'clean-audio-video': CleanAudioVideoOptions;
}

// Each of `defaults`' options as `given` sets it, else its default; whatever else `given` holds (a
// create body's video_url) is left out.
export function withDefaults<O extends object>(given: object, defaults: O): O {
  const values = given as Partial<Record<keyof O, unknown>>;
  return Object.fromEntries(Object.entries(defaults).map(([key, fallback]) => [key, values[key as keyof O] ?? fallback])) as O;
}
