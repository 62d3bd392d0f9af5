// Small helpers the benchmark scripts share: numeric command-line flags and percentiles.

/** The number after `--name` on the command line, or `fallback` when the flag is absent. */
export function numberFlag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`)
  return i > 0 ? Number(process.argv[i + 1]) : fallback
}

/** The p-th percentile (0..100) of ascending `sorted` (nearest rank, rounded down); NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!
}
