// The node's perpd_block_phase_seconds (src/api/metrics.ts) read from its /metrics, so a load run
// can say where its blocks' time went: two readings around the timed section give the mean of each
// phase per block produced in between.

/** Sum (seconds) and count of each phase's histogram. */
export type PhaseReading = ReadonlyMap<string, { readonly sum: number; readonly count: number }>

const SERIES = /^perpd_block_phase_seconds_(sum|count)\{phase="([a-z_]+)"\} (\S+)$/

/** Reads the node's phase histograms; undefined when /metrics does not answer or has none. */
export async function readBlockPhases(baseUrl: string): Promise<PhaseReading | undefined> {
  const text = await fetch(`${baseUrl}/metrics`)
    .then((r) => (r.ok ? r.text() : undefined))
    .catch(() => undefined)
  if (text === undefined) return undefined
  const phases = new Map<string, { sum: number; count: number }>()
  for (const line of text.split('\n')) {
    const m = SERIES.exec(line)
    if (m === null) continue
    const entry = phases.get(m[2]!) ?? { sum: 0, count: 0 }
    entry[m[1] as 'sum' | 'count'] = Number(m[3])
    phases.set(m[2]!, entry)
  }
  return phases.size === 0 ? undefined : phases
}

/** "apply 1.02, state_root 3.70, ... ms per block" between two readings (phases with no block left out). */
export function describeBlockPhases(before: PhaseReading, after: PhaseReading): string {
  const parts: string[] = []
  for (const [phase, end] of after) {
    const start = before.get(phase) ?? { sum: 0, count: 0 }
    const blocks = end.count - start.count
    if (blocks > 0) parts.push(`${phase} ${(((end.sum - start.sum) / blocks) * 1000).toFixed(2)}`)
  }
  return `${parts.join(', ')} ms per block`
}
