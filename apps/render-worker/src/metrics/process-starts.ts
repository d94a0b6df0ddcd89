import { basename } from 'node:path';
import { counter } from '@vj/observability';

const processesStarted = () =>
  counter({
    name: 'worker_processes_started_total',
    help: 'processes a render worker started for its work (ffmpeg, ffprobe, node for a denoiser, warm or cold), by program',
    labelNames: ['program'],
  });

// Counted as each is started: a job's fixed cost grows with its process starts on a slow machine
// (issue 43), and `bench:api` reads this counter around one job of each type.
export function countProcessStart(file: string): void {
  processesStarted().inc({ program: basename(file) });
}
