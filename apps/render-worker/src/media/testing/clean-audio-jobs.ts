import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLEAN_AUDIO_DEFAULTS, type CleanAudioVideoOptions } from '@vj/contracts';
import { cleanAudioVideo, type CleanAudioVideoRequest, type CleanedVideo } from '../clean-audio-video';
import { FFMPEG_PATH, FFPROBE_PATH } from './media-tools';

// What the clean-audio integration specs share: a folder for the run's files, made before a
// describe's tests and removed after them, and clean(), one job on the real ffmpeg in a work folder
// of its own.
export interface CleanAudioJobs {
  // A path in the run's folder.
  media(name: string): string;
  clean(inputPath: string, options?: Partial<CleanAudioVideoOptions>, overrides?: Partial<CleanAudioVideoRequest>): Promise<CleanedVideo>;
}

// Call inside a describe, before its own beforeAll: the folder exists when that runs.
export function useCleanAudioJobs(folderPrefix: string): CleanAudioJobs {
  let dir = '';
  let jobs = 0;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), folderPrefix))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    media: (name) => join(dir, name),
    clean: (inputPath, options = {}, overrides = {}) =>
      cleanAudioVideo({
        inputPath,
        workDir: join(dir, `job-${++jobs}`),
        options: { ...CLEAN_AUDIO_DEFAULTS, ...options },
        timeoutMs: 60_000,
        ffmpegPath: FFMPEG_PATH,
        ffprobePath: FFPROBE_PATH,
        ...overrides,
      }),
  };
}
