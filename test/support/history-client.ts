// Helpers of the history end-to-end tests: JSON GETs with their status, waiting for the index to
// reach the chain tip through /api/v1/status, and walking a cursor endpoint to its end.

export interface JsonReply<T = any> {
  readonly status: number
  readonly body: T
}

export async function getJson<T = any>(url: string, path: string): Promise<JsonReply<T>> {
  const res = await fetch(url + path)
  return { status: res.status, body: (await res.json()) as T }
}

export async function postJson<T = any>(url: string, path: string, body: unknown): Promise<JsonReply<T>> {
  const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as T }
}

export interface Status {
  watermark: number | null
  block_count: number
  node_tip: number | null
  behind: number | null
  envelope_total: number
  derive_watermark: number | null
  derive_lag_blocks: number
  derive_index_version: string | null
  candle_watermark: number | null
  candle_lag_blocks: number
  stats_watermark: number | null
  stats_lag_blocks: number
  hot_feed: Record<string, unknown>
  markets: Record<string, number>
}

/** Waits until every stage has indexed at least `height` (default: the tip when called). */
export async function waitIndexed(url: string, height?: number, timeoutMs = 15_000): Promise<Status> {
  const deadline = Date.now() + timeoutMs
  let status: Status | undefined
  while (Date.now() < deadline) {
    status = (await getJson<Status>(url, '/api/v1/status')).body
    const target = height ?? status.node_tip ?? 0
    if ((status.stats_watermark ?? 0) >= target && (status.candle_watermark ?? 0) >= target && (status.derive_watermark ?? 0) >= target)
      return status
    await Bun.sleep(20)
  }
  throw new Error(`the index did not reach ${height ?? 'the tip'} in ${timeoutMs} ms: ${JSON.stringify(status)}`)
}

/** Every row of a cursor endpoint, following next_cursor page by page. */
export async function walkCursor<T = any>(url: string, path: string, limit: number): Promise<T[]> {
  const rows: T[] = []
  let cursor: string | null = null
  for (let i = 0; i < 10_000; i++) {
    const sep = path.includes('?') ? '&' : '?'
    const r: JsonReply<{ data: T[]; page: { next_cursor: string | null; has_more: boolean } }> = await getJson(
      url,
      `${path}${sep}limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`,
    )
    if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status} ${JSON.stringify(r.body)}`)
    rows.push(...r.body.data)
    if (!r.body.page.has_more) return rows
    cursor = r.body.page.next_cursor
  }
  throw new Error(`${path}: more than 10,000 pages`)
}
