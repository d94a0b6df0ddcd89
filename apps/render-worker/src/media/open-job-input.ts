import { mkdir } from 'node:fs/promises';
import type { Deadline } from './deadline';
import { throwIfAborted } from './media-error';
import type { MediaProbe } from './parse-probe';
import { probeMedia } from './probe';
import type { CommandRunner } from './process-runner';

export interface JobInputFiles {
  inputPath: string;
  workDir: string;
  ffprobePath?: string;
  signal?: AbortSignal;
}

// How every media job begins: nothing once cancelled, then its scratch folder, then the input's probe
// within the job's own time limit.
export async function openJobInput(runner: CommandRunner, files: JobInputFiles, deadline: Deadline): Promise<MediaProbe> {
  throwIfAborted(files.signal);
  await mkdir(files.workDir, { recursive: true });
  return probeMedia(runner, {
    ffprobePath: files.ffprobePath ?? 'ffprobe',
    inputPath: files.inputPath,
    timeoutMs: deadline.remainingMs(),
    signal: files.signal,
  });
}
