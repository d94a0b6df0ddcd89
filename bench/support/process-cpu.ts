import { readdirSync, readFileSync } from 'node:fs';

// CPU time (user + system) of every process on this machine, for a benchmark to say where a unit of
// work's CPU went: each of the stack's services by its app, everything else by its executable's name
// (PostgreSQL's backends, nats-server, s3rver's node), this process as the load generator. Linux only
// (/proc); processes that start or exit between two counts are counted for what they ran in between.

const TICK_MS = 10; // USER_HZ is 100 on Linux whatever the kernel's own tick

export type ProcessCpu = Map<number, { label: string; ms: number }>;

export function processCpu(): ProcessCpu {
  const counts: ProcessCpu = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The fields after the name, which may itself hold spaces and parentheses: state is the first.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
      counts.set(pid, { label: labelOf(pid, stat), ms });
    } catch {
      // Gone since the listing.
    }
  }
  return counts;
}

// CPU ms spent since `before`, summed by label, busiest first.
export function cpuSince(before: ProcessCpu, after: ProcessCpu = processCpu()): [string, number][] {
  const byLabel = new Map<string, number>();
  for (const [pid, { label, ms }] of after) {
    const spent = ms - (before.get(pid)?.ms ?? 0);
    if (spent > 0) byLabel.set(label, (byLabel.get(label) ?? 0) + spent);
  }
  return [...byLabel].sort((a, b) => b[1] - a[1]);
}

function labelOf(pid: number, stat: string): string {
  if (pid === process.pid) return 'load generator (this process)';
  const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  const app = /apps\/([\w-]+)\/src\/main/.exec(cmdline)?.[1];
  if (app) return app;
  if (cmdline.includes('s3rver') || cmdline.includes('s3-server')) return 's3 server';
  return stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
}
