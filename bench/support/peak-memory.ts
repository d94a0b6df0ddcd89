import { readdirSync, readFileSync } from 'node:fs';

// Peak resident memory of this process and of the processes it started (ffmpeg, model threads count
// as this process), sampled from /proc while some work runs. Linux only. A peak between two samples is
// missed: the interval is short next to a pipeline's steady state, which is what a bench compares
// across clip lengths ("memory stays flat").

export interface PeakMemory {
  // This process, in MiB: its largest RSS during the work, and that over its RSS when the work began.
  selfMiB: number;
  selfGrowthMiB: number;
  // Its descendants together, in MiB: the largest sum of their RSS at one sample.
  childrenMiB: number;
}

const SAMPLE_MS = 100;

export async function withPeakMemory<T>(work: () => Promise<T>): Promise<{ result: T; memory: PeakMemory }> {
  const start = rssKiB(process.pid) ?? 0;
  let self = start;
  let children = 0;
  const sample = () => {
    self = Math.max(self, rssKiB(process.pid) ?? 0);
    children = Math.max(children, descendants(process.pid).reduce((sum, pid) => sum + (rssKiB(pid) ?? 0), 0));
  };
  const timer = setInterval(sample, SAMPLE_MS);
  try {
    const result = await work();
    sample();
    return { result, memory: { selfMiB: self / 1024, selfGrowthMiB: (self - start) / 1024, childrenMiB: children / 1024 } };
  } finally {
    clearInterval(timer);
  }
}

function descendants(pid: number): number[] {
  const found: number[] = [];
  for (const child of childrenOf(pid)) found.push(child, ...descendants(child));
  return found;
}

function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter(Boolean)
        .map(Number),
    );
  } catch {
    // Gone since it was listed.
    return [];
  }
}

function rssKiB(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
