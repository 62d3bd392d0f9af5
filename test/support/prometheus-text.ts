// A strict parser of the Prometheus text exposition format 0.0.4, for tests: every line must be a
// HELP, a TYPE or a sample of the metric family the last TYPE named; label values are unescaped;
// a family's samples follow its TYPE; a histogram's buckets are cumulative and end at +Inf equal to
// _count. Throws on anything else, naming the line.

export interface PromSample {
  readonly name: string
  readonly labels: Readonly<Record<string, string>>
  readonly value: number
}

export interface PromFamily {
  readonly name: string
  readonly type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped'
  readonly help: string
  readonly samples: PromSample[]
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*'
const SAMPLE = new RegExp(`^(${NAME})(\\{(.*)\\})?\\s+(\\S+)(\\s+-?\\d+)?$`)
const LABEL_PAIR = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/

function parseValue(text: string, line: number): number {
  if (text === '+Inf') return Infinity
  if (text === '-Inf') return -Infinity
  if (text === 'NaN') return NaN
  if (!/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`line ${line}: bad value ${text}`)
  return Number(text)
}

function parseLabels(text: string, line: number): Record<string, string> {
  const labels: Record<string, string> = {}
  let rest = text
  while (rest.length > 0) {
    const m = LABEL_PAIR.exec(rest)
    if (m === null) throw new Error(`line ${line}: bad labels {${text}}`)
    if (m[1]! in labels) throw new Error(`line ${line}: label ${m[1]} twice`)
    labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => {
      if (c === 'n') return '\n'
      if (c === '\\' || c === '"') return c
      throw new Error(`line ${line}: bad escape \\${c}`)
    })
    rest = rest.slice(m[0].length)
  }
  return labels
}

export function parsePrometheusText(text: string): Map<string, PromFamily> {
  const families = new Map<string, PromFamily>()
  const helps = new Map<string, string>()
  let current: PromFamily | undefined
  const lines = text.split('\n')
  if (lines[lines.length - 1] !== '') throw new Error('the text does not end with a newline')
  lines.pop()
  lines.forEach((raw, i) => {
    const line = i + 1
    if (raw.trim() === '') return
    if (raw.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(raw)
      if (m === null) return // a comment
      const [, what, name, rest] = m
      if (!new RegExp(`^${NAME}$`).test(name!)) throw new Error(`line ${line}: bad metric name ${name}`)
      if (what === 'HELP') {
        if (helps.has(name!)) throw new Error(`line ${line}: HELP of ${name} twice`)
        helps.set(name!, rest!)
        return
      }
      if (families.has(name!)) throw new Error(`line ${line}: TYPE of ${name} twice`)
      if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest!)) throw new Error(`line ${line}: bad type ${rest}`)
      current = { name: name!, type: rest as PromFamily['type'], help: helps.get(name!) ?? '', samples: [] }
      families.set(name!, current)
      return
    }
    const m = SAMPLE.exec(raw)
    if (m === null) throw new Error(`line ${line}: not a sample: ${raw}`)
    const name = m[1]!
    if (current === undefined) throw new Error(`line ${line}: sample ${name} before any TYPE`)
    const allowed =
      current.type === 'histogram' ? [`${current.name}_bucket`, `${current.name}_sum`, `${current.name}_count`] : [current.name]
    if (!allowed.includes(name)) throw new Error(`line ${line}: sample ${name} is not of family ${current.name}`)
    const labels = m[3] === undefined ? {} : parseLabels(m[3], line)
    if (current.type === 'histogram' && name.endsWith('_bucket') && labels.le === undefined)
      throw new Error(`line ${line}: bucket without le`)
    current.samples.push({ name, labels, value: parseValue(m[4]!, line) })
  })
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f)
  return families
}

function seriesKey(labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(
    Object.entries(labels)
      .filter(([k]) => k !== 'le')
      .sort(),
  )
}

function checkHistogram(f: PromFamily): void {
  const bySeries = new Map<string, PromSample[]>()
  for (const s of f.samples) {
    const k = seriesKey(s.labels)
    bySeries.set(k, [...(bySeries.get(k) ?? []), s])
  }
  for (const [k, samples] of bySeries) {
    const buckets = samples.filter((s) => s.name.endsWith('_bucket'))
    let last = -Infinity
    let prev = 0
    for (const b of buckets) {
      const le = parseValue(b.labels.le!, 0)
      if (!(le > last)) throw new Error(`${f.name}${k}: le not increasing`)
      if (b.value < prev) throw new Error(`${f.name}${k}: buckets not cumulative`)
      last = le
      prev = b.value
    }
    if (last !== Infinity) throw new Error(`${f.name}${k}: no +Inf bucket`)
    const count = samples.find((s) => s.name === `${f.name}_count`)
    if (count === undefined || count.value !== prev) throw new Error(`${f.name}${k}: _count differs from the +Inf bucket`)
    if (samples.find((s) => s.name === `${f.name}_sum`) === undefined) throw new Error(`${f.name}${k}: no _sum`)
  }
}

/** The sum of the samples of `name` whose labels include `labels` (undefined when none does). */
export function sampleValue(families: Map<string, PromFamily>, name: string, labels: Record<string, string> = {}): number | undefined {
  const familyName = families.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '')
  const f = families.get(familyName)
  if (f === undefined) return undefined
  const matches = f.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
  if (matches.length === 0) return undefined
  return matches.reduce((sum, s) => sum + s.value, 0)
}
