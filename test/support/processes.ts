import { execFileSync } from 'node:child_process';
import { waitFor } from '@vj/local-stack';
import { WAITING_TITLE } from '../../apps/render-worker/src/media/warm-node-processes';
import type { ServiceProcess } from '../../scripts/stack/service-process';

export interface ChildProcessInfo {
  pid: number;
  command: string;
}

// Child processes (ffmpeg, ffprobe, the denoiser) of a service: a worker has some only while it works,
// besides the denoisers it keeps booted and waiting (decision 0048), left out here.
export function childrenOf(service: ServiceProcess): ChildProcessInfo[] {
  try {
    const lines = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(service.child.pid)]).toString().trim().split('\n');
    return lines
      .map((line) => line.trim().split(/\s+/))
      .map(([pid, command]) => ({ pid: Number(pid), command: command ?? '' }))
      .filter((child) => child.command !== WAITING_TITLE);
  } catch {
    return [];
  }
}

// The render worker running a job's ffmpeg. ffprobe alone is not proof: a worker also runs it to quote
// a create (and to measure an input). ffmpeg runs only for a job.
export async function busyWorker(services: ServiceProcess[], timeoutMs = 30_000): Promise<ServiceProcess> {
  let busy: ServiceProcess | undefined;
  await waitFor(
    'a worker running ffmpeg for the job',
    async () => {
      busy = services.find((s) => s.name.startsWith('render-worker') && s.child.exitCode === null && s.child.signalCode === null && childrenOf(s).some((child) => child.command === 'ffmpeg'));
      return busy !== undefined;
    },
    timeoutMs,
    50,
  );
  return busy!;
}

// A crash: SIGKILL, no shutdown, no report; its children (ffmpeg) go with it, as in a container.
export async function killHard(service: ServiceProcess): Promise<void> {
  const orphans = childrenOf(service).map((child) => child.pid);
  service.child.kill('SIGKILL');
  for (const pid of orphans) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone with its parent
    }
  }
  await service.exited;
}
