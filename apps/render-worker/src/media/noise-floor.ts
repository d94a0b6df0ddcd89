import { readFile } from 'node:fs/promises';

// A stream's noise floor for the quality report (decision 0096): the 10th percentile of its RMS
// levels over 100 ms windows (at 48 kHz; a little longer at lower rates), digital silence left out.
// astats' own "noise floor" is the quietest window: one window of the silence a late audio start is
// padded with reads -inf. The levels are written by the filter to `fileName`, relative to the
// folder the measuring ffmpeg runs in (ProcessCommand.cwd): a path inside a filter graph would need
// escaping, a plain name does not.
const WINDOW_SAMPLES = 4800;
const PERCENTILE = 0.1;
// Under this a window is digital silence (a 16-bit sample's step is -96 dBFS).
const SILENT_BELOW_DB = -110;

export function levelsFilter(fileName: string): string {
  return [
    `asetnsamples=n=${WINDOW_SAMPLES}`,
    'astats=metadata=1:reset=1:measure_perchannel=none:measure_overall=RMS_level',
    `ametadata=mode=print:key=lavfi.astats.Overall.RMS_level:file=${fileName}`,
  ].join(',');
}

// The noise floor in dBFS of the levels levelsFilter wrote; null when every window was silent.
export function noiseFloorOf(levels: string): number | null {
  const audible = [...levels.matchAll(/RMS_level=(-?[\d.]+|-?inf)/g)]
    .map((match) => Number(match[1]))
    .filter((level) => Number.isFinite(level) && level >= SILENT_BELOW_DB)
    .sort((a, b) => a - b);
  if (audible.length === 0) return null;
  return round(audible[Math.floor(PERCENTILE * (audible.length - 1))]);
}

export async function readNoiseFloor(path: string): Promise<number | null> {
  return noiseFloorOf(await readFile(path, 'utf8'));
}

function round(db: number): number {
  return Math.round(db * 10) / 10;
}
