// The node's perpd_block_phase_seconds and perpd_action_seconds (src/api/metrics.ts) read from its
// /metrics, so a load run can say where its blocks' time went and how much of an action's latency
// the node itself saw: two readings around the timed section give the mean of each phase per block
// produced in between, and the mean time from a request to its reply inside the node.

/** Sum (seconds) and count of a histogram. */
export interface SumCount {
  readonly sum: number
  readonly count: number
}

/** Sum and count of each phase's histogram. */
export type PhaseReading = ReadonlyMap<string, SumCount>

/** One reading of the node's /metrics. */
export interface NodeReading {
  readonly phases: PhaseReading
  /** perpd_action_seconds; undefined from a node without it. */
  readonly actionSeconds: SumCount | undefined
}

const PHASE_SERIES = /^perpd_block_phase_seconds_(sum|count)\{phase="([a-z_]+)"\} (\S+)$/
const ACTION_SERIES = /^perpd_action_seconds_(sum|count) (\S+)$/

/** Reads the node's phase and action histograms; undefined when /metrics does not answer or has no phases. */
export async function readNodeMetrics(baseUrl: string): Promise<NodeReading | undefined> {
  const text = await fetch(`${baseUrl}/metrics`)
    .then((r) => (r.ok ? r.text() : undefined))
    .catch(() => undefined)
  if (text === undefined) return undefined
  const phases = new Map<string, { sum: number; count: number }>()
  const action = { sum: Number.NaN, count: Number.NaN }
  for (const line of text.split('\n')) {
    const a = ACTION_SERIES.exec(line)
    if (a !== null) action[a[1] as 'sum' | 'count'] = Number(a[2])
    const m = PHASE_SERIES.exec(line)
    if (m === null) continue
    const entry = phases.get(m[2]!) ?? { sum: 0, count: 0 }
    entry[m[1] as 'sum' | 'count'] = Number(m[3])
    phases.set(m[2]!, entry)
  }
  if (phases.size === 0) return undefined
  return { phases, actionSeconds: Number.isNaN(action.sum) || Number.isNaN(action.count) ? undefined : action }
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

/** The mean of a histogram between two readings, in ms; undefined without observations in between. */
export function meanMsBetween(before: SumCount | undefined, after: SumCount | undefined): number | undefined {
  if (before === undefined || after === undefined || after.count <= before.count) return undefined
  return ((after.sum - before.sum) / (after.count - before.count)) * 1000
}
