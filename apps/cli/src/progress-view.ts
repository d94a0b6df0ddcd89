import { MultiBar, Presets, type SingleBar } from 'cli-progress';

// What a command shows while it works: bars on a terminal, one plain line per step and every 10%
// otherwise (logs, CI), nothing with --json (stdout is the answer; progress stays off it).
export interface ProgressView {
  upload(sent: number, total: number): void;
  processing(stage: string, fraction: number): void;
  download(written: number, total: number): void;
  line(text: string): void;
  stop(): void;
}

export function progressView(stream: NodeJS.WriteStream, mode: 'tty' | 'plain' | 'quiet'): ProgressView {
  if (mode === 'quiet') return { upload() {}, processing() {}, download() {}, line() {}, stop() {} };
  if (mode === 'plain') return plainView(stream);
  return barView(stream);
}

const MB = 1024 * 1024;

function barView(stream: NodeJS.WriteStream): ProgressView {
  const bars = new MultiBar({ stream, clearOnComplete: false, hideCursor: true, format: '{label} |{bar}| {percentage}% {detail}', autopadding: true }, Presets.shades_classic);
  const made = new Map<string, SingleBar>();
  const bar = (label: string, total: number) => {
    let found = made.get(label);
    if (!found) made.set(label, (found = bars.create(total, 0, { label: label.padEnd(10), detail: '' })));
    return found;
  };
  return {
    upload: (sent, total) => bar('upload', total).update(sent, { detail: `${(sent / MB).toFixed(1)}/${(total / MB).toFixed(1)} MB` }),
    processing: (stage, fraction) => bar('processing', 100).update(Math.round(fraction * 100), { detail: stage }),
    download: (written, total) => bar('download', Math.max(total, 1)).update(written, { detail: `${(written / MB).toFixed(1)} MB` }),
    line: (text) => bars.log(`${text}\n`),
    stop: () => bars.stop(),
  };
}

function plainView(stream: NodeJS.WriteStream): ProgressView {
  const shown = new Map<string, number>();
  const step = (label: string, fraction: number, detail = '') => {
    const tenth = Math.floor(fraction * 10);
    if (shown.get(label) === tenth) return;
    shown.set(label, tenth);
    stream.write(`${label} ${Math.round(fraction * 100)}%${detail ? ` ${detail}` : ''}\n`);
  };
  return {
    upload: (sent, total) => step('upload', total ? sent / total : 1),
    processing: (stage, fraction) => step('processing', fraction, stage),
    download: (written, total) => step('download', total ? written / total : 1),
    line: (text) => stream.write(`${text}\n`),
    stop: () => undefined,
  };
}
