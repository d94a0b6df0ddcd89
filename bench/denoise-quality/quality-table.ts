// The bench's table: a row per noise, for each stage a column per SNR and one for inputs without
// one ("-": the reverberant room, the clean speech). The noisy input's SI-SDR first, then what each
// stage gains over it, averaged over the clips (per clip too, verbose).

export const STAGES = ['denoised', 'full', 'chain'] as const;
export type Stage = (typeof STAGES)[number];

// SI-SDR in dB against the clean speech, of the noisy input and of each stage's output.
export type StageScores = Record<'noisy' | Stage, number>;

export interface CaseScore extends StageScores {
  noise: string;
  // null: no SNR (nothing added: the reverberant room).
  snrDb: number | null;
  clip: string;
}

// The clean clip through each stage: SI-SDR of the output against the clean input.
export type CleanScore = Record<Stage, number> & { clip: string };

export interface TableOptions {
  snrs: readonly number[];
  verbose: boolean;
  strength: number;
}

const NAME = 18;
const CELL = 7;

export function qualityTable(cases: readonly CaseScore[], clean: readonly CleanScore[], options: TableOptions): string[] {
  const titles = ['noisy input, SI-SDR', `gain: RNNoise ${options.strength}`, 'gain: RNNoise 1', 'gain: whole chain'];
  const snrs: (number | null)[] = [...options.snrs, null];
  // A stage's columns, under its title.
  const group = (values: readonly string[]): string => values.map((value) => value.padStart(CELL)).join('').padStart(Math.max(...titles.map((title) => title.length)));
  const line = (name: string, groups: readonly (readonly string[])[]): string => `${name.padEnd(NAME)}${groups.map((values) => ` | ${group(values)}`).join('')}`.trimEnd();
  const lines = [
    `${''.padEnd(NAME)}${titles.map((title) => ` | ${title.padEnd(group(snrs.map(() => '')).length)}`).join('')}`.trimEnd(),
    line('noise', titles.map(() => snrs.map((snr) => (snr === null ? '-' : `${snr} dB`)))),
  ];
  for (const noise of new Set(cases.map((score) => score.noise))) {
    const ofNoise = cases.filter((score) => score.noise === noise);
    lines.push(line(noise, figures(ofNoise, snrs)));
    if (!options.verbose) continue;
    for (const clip of new Set(ofNoise.map((score) => score.clip))) lines.push(line(`  ${clip}`, figures(ofNoise.filter((score) => score.clip === clip), snrs)));
  }
  // Not a gain: how far each stage takes the clean speech from itself.
  for (const score of clean) {
    const only = (value: string): string[] => snrs.map((snr) => (snr === null ? value : ''));
    lines.push(line(`clean ${score.clip}`, [only('-'), ...STAGES.map((stage) => only(score[stage].toFixed(1)))]));
  }
  return lines;
}

// Means over the clips, per SNR: the noisy input's SI-SDR, then each stage's gain over it.
function figures(scores: readonly CaseScore[], snrs: readonly (number | null)[]): string[][] {
  const at = snrs.map((snr) => scores.filter((score) => score.snrDb === snr));
  const noisy = at.map((some) => (some.length === 0 ? '' : mean(some.map((score) => score.noisy)).toFixed(1)));
  return [noisy, ...STAGES.map((stage) => at.map((some) => (some.length === 0 ? '' : signed(mean(some.map((score) => score[stage] - score.noisy))))))];
}

// A gain that rounds to zero reads +0.0, whichever side it fell.
function signed(value: number): string {
  const rounded = Number(value.toFixed(1));
  return `${rounded >= 0 ? '+' : ''}${rounded.toFixed(1)}`;
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}
