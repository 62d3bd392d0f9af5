// Statistics the benchmark scripts share. (Their command lines go through src/lib/options.ts.)

/** The p-th percentile (0..100) of ascending `sorted` (nearest rank, rounded down); NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!
}
