import type { MatteScore } from './matte-score';

// The bench's table: each clip matted both ways side by side, then the total.

export interface ClipResult {
  name: string;
  // Pixels in a frame, to weigh the clips' empty frames in the total.
  pixels: number;
  pipeline: MatteScore;
  perFrame: MatteScore;
}

const NAME = 26;
// Each way's columns: mean IoU, worst (frame), kept %, flicker.
const WIDTHS = [9, 16, 7, 9];
const WAY = columns(['mean IoU', 'worst (frame)', 'kept %', 'flicker']);

export function scoreTable(results: readonly ClipResult[]): string[] {
  const lines = [
    `${''.padEnd(NAME)} ${''.padStart(6)} ${''.padStart(5)} | ${'pipeline (tracking)'.padEnd(WAY.length)} | per-frame model`,
    `${'clip'.padEnd(NAME)} ${'frames'.padStart(6)} ${'empty'.padStart(5)} | ${WAY} | ${WAY}`,
  ];
  for (const { name, pipeline, perFrame } of results) {
    lines.push(`${name.padEnd(NAME)} ${String(pipeline.frames).padStart(6)} ${String(pipeline.emptyFrames).padStart(5)} | ${way(pipeline)} | ${way(perFrame)}`);
  }
  const frames = results.reduce((sum, result) => sum + result.pipeline.frames, 0);
  const empty = results.reduce((sum, result) => sum + result.pipeline.emptyFrames, 0);
  lines.push(`${'TOTAL'.padEnd(NAME)} ${String(frames).padStart(6)} ${String(empty).padStart(5)} | ${total(results, 'pipeline')} | ${total(results, 'perFrame')}`);
  return lines;
}

function way(score: MatteScore): string {
  return figures(score.meanIou, `${score.worstIou.toFixed(4)} (${score.worstFrame})`, score.emptyFrames > 0 ? percent(score.emptyKept) : '-', score.flicker);
}

// Mean over the clips of their mean IoU and flicker, the worst frame of all, and the share kept of
// all the empty frames' pixels.
function total(results: readonly ClipResult[], key: 'pipeline' | 'perFrame'): string {
  const scores = results.map((result) => result[key]);
  const mean = (value: (score: MatteScore) => number) => scores.reduce((sum, score) => sum + value(score), 0) / scores.length;
  const emptyPixels = results.reduce((sum, result) => sum + result[key].emptyFrames * result.pixels, 0);
  const kept = results.reduce((sum, result) => sum + result[key].emptyKept * result[key].emptyFrames * result.pixels, 0);
  return figures(mean((score) => score.meanIou), Math.min(...scores.map((score) => score.worstIou)).toFixed(4), emptyPixels > 0 ? percent(kept / emptyPixels) : '-', mean((score) => score.flicker));
}

function figures(meanIou: number, worst: string, kept: string, flicker: number): string {
  return columns([meanIou.toFixed(4), worst, kept, flicker.toFixed(5)]);
}

function columns(cells: string[]): string {
  return cells.map((cell, i) => cell.padStart(WIDTHS[i]!)).join(' ');
}

const percent = (share: number): string => `${(100 * share).toFixed(2)}`;
