// The order statistics the benches print: nearest rank, so a value shown is one that was measured.
// NaN for no values, so an empty row reads as missing rather than as 0.

// The value at percentile `p` (0-100) of `values`, in any order.
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}
