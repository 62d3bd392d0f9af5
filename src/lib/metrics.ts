// Metrics in the Prometheus text exposition format 0.0.4, written by hand (docs/operator.md#metrics
// says why not prom-client: its labelled children hash their label object on every inc/observe).
// A labelled metric hands out one child per label-value tuple, created once and kept; a child is a
// plain number (a counter or gauge) or a fixed array of bucket counts (a histogram), so counting a
// request is a Map lookup and an addition. Gauges whose value is read at scrape time take a collect
// callback instead.

/** The content type of a scrape's body. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/** Buckets (seconds) for request and block durations: 1 ms to 10 s. */
export const DURATION_BUCKETS_SECONDS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/

/** A label value escaped for the text format: backslash, double quote and newline. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
}

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')
}

/** A sample value as the format writes it (+Inf, -Inf, NaN, else the shortest decimal). */
export function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN'
  if (v === Infinity) return '+Inf'
  if (v === -Infinity) return '-Inf'
  return String(v)
}

function labelText(names: readonly string[], values: readonly string[], extra?: string): string {
  const parts: string[] = []
  for (let i = 0; i < names.length; i++) parts.push(`${names[i]}="${escapeLabelValue(values[i]!)}"`)
  if (extra !== undefined) parts.push(extra)
  return parts.length === 0 ? '' : `{${parts.join(',')}}`
}

interface Metric {
  readonly name: string
  write(out: string[]): void
}

/** The value of a counter or gauge child. */
export class Sample {
  value = 0
}

/** A counter or gauge: `labels(...)` returns the child of those label values, kept for reuse. */
abstract class Scalar<L extends readonly string[]> implements Metric {
  private readonly children = new Map<string, { values: readonly string[]; sample: Sample }>()
  private collectFn: ((set: (labels: Readonly<Record<L[number], string>> | undefined, value: number) => void) => void) | undefined

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: L,
    private readonly type: 'counter' | 'gauge',
  ) {
    checkNames(name, labelNames)
  }

  /** The child of these label values (in labelNames order); keep it to count without a lookup. */
  labels(...values: { [K in keyof L]: string }): Sample {
    const key = values.length === 1 ? values[0]! : values.join('\u0000')
    let child = this.children.get(key)
    if (child === undefined) {
      if (values.length !== this.labelNames.length)
        throw new Error(`${this.name}: ${this.labelNames.length} label values expected, got ${values.length}`)
      child = { values: [...values], sample: new Sample() }
      this.children.set(key, child)
    }
    return child.sample
  }

  /**
   * Sets values at scrape time: fn is called before each write and calls set for each series (the
   * series it does not set this time keep their last value; call reset() in fn to drop them).
   */
  collect(fn: (set: (labels: Readonly<Record<L[number], string>> | undefined, value: number) => void) => void): this {
    this.collectFn = fn
    return this
  }

  /** Drops every series. */
  reset(): void {
    this.children.clear()
  }

  write(out: string[]): void {
    if (this.collectFn !== undefined) {
      this.collectFn((labels, value) => {
        const values = this.labelNames.map((n) => (labels as Record<string, string> | undefined)?.[n] ?? '') as unknown as {
          [K in keyof L]: string
        }
        this.labels(...values).value = value
      })
    }
    out.push(`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`)
    if (this.labelNames.length === 0 && this.children.size === 0) out.push(`${this.name} 0`)
    for (const { values, sample } of this.children.values())
      out.push(`${this.name}${labelText(this.labelNames, values)} ${formatValue(sample.value)}`)
  }
}

export class Counter<L extends readonly string[] = []> extends Scalar<L> {
  constructor(name: string, help: string, labelNames: L = [] as unknown as L) {
    super(name, help, labelNames, 'counter')
  }
}

export class Gauge<L extends readonly string[] = []> extends Scalar<L> {
  constructor(name: string, help: string, labelNames: L = [] as unknown as L) {
    super(name, help, labelNames, 'gauge')
  }
}

/** The bucket counts of one histogram series. */
export class HistogramChild {
  /** counts[i]: observations <= bounds[i] (not cumulative; the write sums them). The last: above every bound. */
  readonly counts: Float64Array
  sum = 0
  count = 0
  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Float64Array(bounds.length + 1)
  }

  observe(value: number): void {
    const b = this.bounds
    let i = 0
    while (i < b.length && value > b[i]!) i++
    this.counts[i]!++
    this.sum += value
    this.count++
  }
}

export class Histogram<L extends readonly string[] = []> implements Metric {
  private readonly children = new Map<string, { values: readonly string[]; child: HistogramChild }>()
  readonly bounds: readonly number[]

  constructor(
    readonly name: string,
    readonly help: string,
    labelNames: L = [] as unknown as L,
    buckets: readonly number[] = DURATION_BUCKETS_SECONDS,
  ) {
    checkNames(name, labelNames)
    if (labelNames.includes('le')) throw new Error(`${name}: "le" is reserved in a histogram`)
    for (let i = 1; i < buckets.length; i++) if (!(buckets[i]! > buckets[i - 1]!)) throw new Error(`${name}: buckets must increase`)
    this.bounds = [...buckets]
    this.labelNames = labelNames
  }

  readonly labelNames: L

  labels(...values: { [K in keyof L]: string }): HistogramChild {
    const key = values.length === 1 ? values[0]! : values.join('\u0000')
    let entry = this.children.get(key)
    if (entry === undefined) {
      if (values.length !== this.labelNames.length)
        throw new Error(`${this.name}: ${this.labelNames.length} label values expected, got ${values.length}`)
      entry = { values: [...values], child: new HistogramChild(this.bounds) }
      this.children.set(key, entry)
    }
    return entry.child
  }

  write(out: string[]): void {
    out.push(`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} histogram`)
    if (this.labelNames.length === 0 && this.children.size === 0) this.labels(...([] as unknown as { [K in keyof L]: string }))
    for (const { values, child } of this.children.values()) {
      let cumulative = 0
      for (let i = 0; i <= this.bounds.length; i++) {
        cumulative += child.counts[i]!
        const le = i < this.bounds.length ? formatValue(this.bounds[i]!) : '+Inf'
        out.push(`${this.name}_bucket${labelText(this.labelNames, values, `le="${le}"`)} ${cumulative}`)
      }
      out.push(`${this.name}_sum${labelText(this.labelNames, values)} ${formatValue(child.sum)}`)
      out.push(`${this.name}_count${labelText(this.labelNames, values)} ${child.count}`)
    }
  }
}

function checkNames(name: string, labelNames: readonly string[]): void {
  if (!NAME.test(name)) throw new Error(`bad metric name ${name}`)
  for (const l of labelNames) if (!LABEL.test(l) || l.startsWith('__')) throw new Error(`${name}: bad label name ${l}`)
}

/** A set of metrics written together: one scrape. */
export class Registry {
  private readonly metrics: Metric[] = []
  private readonly beforeScrape: (() => void)[] = []

  register<M extends Metric>(metric: M): M {
    if (this.metrics.some((m) => m.name === metric.name)) throw new Error(`metric ${metric.name} registered twice`)
    this.metrics.push(metric)
    return metric
  }

  counter<const L extends readonly string[] = []>(name: string, help: string, labelNames?: L): Counter<L> {
    return this.register(new Counter<L>(name, help, labelNames))
  }

  gauge<const L extends readonly string[] = []>(name: string, help: string, labelNames?: L): Gauge<L> {
    return this.register(new Gauge<L>(name, help, labelNames))
  }

  histogram<const L extends readonly string[] = []>(name: string, help: string, labelNames?: L, buckets?: readonly number[]): Histogram<L> {
    return this.register(new Histogram<L>(name, help, labelNames, buckets))
  }

  /** Runs fn before each scrape (to refresh gauges read from elsewhere). */
  onScrape(fn: () => void): void {
    this.beforeScrape.push(fn)
  }

  /** The exposition text of every metric. */
  text(): string {
    for (const fn of this.beforeScrape) fn()
    const out: string[] = []
    for (const m of this.metrics) m.write(out)
    return `${out.join('\n')}\n`
  }

  /** The scrape as an HTTP response. */
  response(): Response {
    return new Response(this.text(), { headers: { 'content-type': PROMETHEUS_CONTENT_TYPE, 'cache-control': 'no-store' } })
  }
}

/**
 * The family of a request path for the route_family label: the first word after `prefix` (e.g.
 * `/api/v1/markets/BTC-USD` → `markets`) mapped through `families`, else `other`; a bounded label.
 * No allocation beyond the slice of that word.
 */
export function routeFamily(url: string, prefix: string, families: ReadonlyMap<string, string>): string {
  // The path starts after "scheme://host".
  const hostStart = url.indexOf('//')
  const pathStart = hostStart < 0 ? 0 : url.indexOf('/', hostStart + 2)
  if (pathStart < 0) return 'other'
  if (!url.startsWith(prefix, pathStart)) return families.get(wordAt(url, pathStart + 1)) ?? 'other'
  return families.get(wordAt(url, pathStart + prefix.length)) ?? 'other'
}

function wordAt(url: string, start: number): string {
  let end = start
  while (end < url.length) {
    const c = url.charCodeAt(end)
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) break
    end++
  }
  return url.slice(start, end)
}
