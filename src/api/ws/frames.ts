// Push frame bodies (docs/websocket.md#websocket-protocol), without `topic` and `seq` (the hub adds
// both per connection, since each client keeps its own spelling of a topic and its own sequence).
// `rest(obj)` turns a body into the text after `{"seq":N,"topic":"...",`, built once per block and
// shared by every subscriber.
import type { BookSnapshot, FeedMarket, HotFeed, QuoteJson } from '../../feed/hot-feed.ts'
import type { HistoryStatus } from '../../feed/source.ts'
import type { FeedBlock, RecentTrade } from '../../feed/types.ts'
import { actionResultJson } from '../../node/action-result.ts'
import { TOPIC_LENGTH_MAX } from './topics.ts'

/** A body's JSON without its opening brace, ready to follow `{"seq":N,"topic":...,`. */
export function rest(body: object): string {
  return JSON.stringify(body).slice(1)
}

/**
 * A push body: its text as one frame (`rest`), and how to split it when that frame would be larger
 * than the frame limit (docs/websocket.md#split-frames): `splitKeys` name the lists (and maps)
 * whose items may be spread over parts; every other field is repeated in each part.
 */
export interface Push {
  readonly rest: string
  readonly body: () => Record<string, unknown>
  readonly splitKeys: readonly string[]
}

/** A push of `body`, splittable along `splitKeys` (lists are cut between items, maps between entries). */
export function push(body: Record<string, unknown>, splitKeys: readonly string[] = []): Push {
  return { rest: rest(body), body: () => body, splitKeys }
}

/**
 * Bytes a frame spends before its body: `{"seq":N,"topic":T,` with a seq of up to 16 digits and a
 * topic of at most TOPIC_LENGTH_MAX characters, each JSON-escaped to at most 6 bytes.
 */
export const FRAME_PREFIX_BYTES_MAX = 40 + 6 * TOPIC_LENGTH_MAX

/**
 * The lists of a subscribed / unsubscribed frame within the frame limit. They fit unless a client
 * crams one subscription frame with rejected topics (each reason is longer than its topic); then
 * the tail of `rejected`, and past that of `topics`, is left out for one last rejected message
 * that counts what was not listed.
 */
export function fitConfirmation(
  topics: readonly string[],
  rejected: readonly string[],
  frameBytesMax: number,
): { topics: string[]; rejected: string[] } {
  // `{"seq":<16 digits>,"op":"unsubscribed","topics":[],"rejected":[]}` (72 bytes) and the closing note (under 200).
  const budget = frameBytesMax - 320
  const sizeOf = (s: string) => Buffer.byteLength(JSON.stringify(s), 'utf8') + 1
  let used = 0
  for (const s of topics) used += sizeOf(s)
  for (const s of rejected) used += sizeOf(s)
  if (used <= budget) return { topics: [...topics], rejected: [...rejected] }
  used = 0
  const keptTopics: string[] = []
  for (const s of topics) {
    if (used + sizeOf(s) > budget) break
    used += sizeOf(s)
    keptTopics.push(s)
  }
  const keptRejected: string[] = []
  if (keptTopics.length === topics.length) {
    for (const s of rejected) {
      if (used + sizeOf(s) > budget) break
      used += sizeOf(s)
      keptRejected.push(s)
    }
  }
  keptRejected.push(
    `${topics.length - keptTopics.length} more topics and ${rejected.length - keptRejected.length} more rejections not listed: the frame limit is ${frameBytesMax} bytes`,
  )
  return { topics: keptTopics, rejected: keptRejected }
}

/**
 * The frame texts (after `{"seq":N,"topic":T,`) of a push under a frame limit of `frameBytesMax`
 * bytes: the body as is when its frame fits, else parts (docs/websocket.md#split-frames). Each part
 * starts with `"part":i,"parts":n` (1-based), repeats every field that is not split, and carries its
 * share of the split lists and maps in order: the items of the first split key, then of the next.
 * A part holds at least one item, so an item larger than a whole frame would still go out, alone.
 */
export function framesOf(p: Push, frameBytesMax: number): string[] {
  const budget = frameBytesMax - FRAME_PREFIX_BYTES_MAX
  // A string of n UTF-16 units has at most 3n UTF-8 bytes: most bodies are not even measured.
  if (p.splitKeys.length === 0 || p.rest.length * 3 <= budget || Buffer.byteLength(p.rest, 'utf8') <= budget) return [p.rest]
  type Field = { readonly head: string; readonly items?: readonly string[]; readonly map?: boolean }
  const fields: Field[] = []
  const sizes: number[] = []
  let fixed = 0
  for (const [key, value] of Object.entries(p.body())) {
    if (value === undefined) continue
    const head = `${JSON.stringify(key)}:`
    if (!p.splitKeys.includes(key) || value === null || typeof value !== 'object') {
      const text = `${head}${JSON.stringify(value)}`
      fields.push({ head: text })
      fixed += Buffer.byteLength(text, 'utf8') + 1
      continue
    }
    const map = !Array.isArray(value)
    const items = map
      ? Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
      : (value as unknown[]).map((v) => JSON.stringify(v))
    for (const item of items) sizes.push(Buffer.byteLength(item, 'utf8') + 1)
    fields.push({ head, items, map })
    fixed += Buffer.byteLength(head, 'utf8') + 3
  }
  // "part":N,"parts":N, with N as wide as the item count allows, and the closing brace.
  fixed += 20 + 2 * String(Math.max(1, sizes.length)).length
  // Greedy, in item order: a new part when the next item does not fit.
  const cuts: number[] = [0]
  let used = 0
  for (let i = 0; i < sizes.length; i++) {
    if (used > 0 && fixed + used + sizes[i]! > budget) {
      cuts.push(i)
      used = 0
    }
    used += sizes[i]!
  }
  if (cuts.length === 1) return [p.rest]
  cuts.push(sizes.length)
  const total = cuts.length - 1
  const parts: string[] = []
  for (let k = 0; k < total; k++) {
    const from = cuts[k]!
    const to = cuts[k + 1]!
    const out: string[] = [`"part":${k + 1}`, `"parts":${total}`]
    let at = 0
    for (const f of fields) {
      if (f.items === undefined) {
        out.push(f.head)
        continue
      }
      const start = Math.max(from, at)
      const end = Math.min(to, at + f.items.length)
      const slice = start < end ? f.items.slice(start - at, end - at).join(',') : ''
      out.push(f.map === true ? `${f.head}{${slice}}` : `${f.head}[${slice}]`)
      at += f.items.length
    }
    parts.push(`${out.join(',')}}`)
  }
  return parts
}

const strip0x = (h: string) => (h.startsWith('0x') ? h.slice(2) : h)

export function blockBody(block: FeedBlock) {
  const h = block.header
  return {
    height: h.height,
    timestamp_ms: h.timestampMs,
    digest: strip0x(h.digest),
    state_root: strip0x(h.stateRoot),
    envelope_count: h.envelopeCount,
    event_count: h.eventCount,
  }
}

/**
 * The book push: its one-frame text splices the levels in from the cached snapshot JSON; split, the
 * bids and then the asks are spread over the parts, each part carrying the whole snapshot's state_hash.
 */
export function bookPush(m: FeedMarket, snap: BookSnapshot, height: number, timestampMs: number): Push {
  return {
    rest: `"symbol":${JSON.stringify(m.symbol)},"height":${height},"timestamp_ms":${timestampMs},"state_hash":"${snap.stateHash}",${snap.levelsJson}}`,
    body: () => ({ symbol: m.symbol, height, timestamp_ms: timestampMs, state_hash: snap.stateHash, bids: snap.bids, asks: snap.asks }),
    splitKeys: ['bids', 'asks'],
  }
}

export function bboBody(feed: HotFeed, m: FeedMarket, height: number, timestampMs: number) {
  const b = feed.bbo(m)
  return { symbol: m.symbol, height, timestamp_ms: timestampMs, best_bid: b.best_bid, best_ask: b.best_ask }
}

export function tradesBody(m: FeedMarket, trades: readonly RecentTrade[], height: number, timestampMs: number) {
  return {
    symbol: m.symbol,
    height,
    timestamp_ms: timestampMs,
    trades: trades.map((t) => ({
      block_height: t.block_height,
      event_seq: t.event_seq,
      timestamp_ms: t.timestamp_ms,
      market_id: t.market_id,
      price: t.price,
      qty: t.qty,
      notional: t.notional,
      side: t.side,
    })),
  }
}

export function accountBody(account: Record<string, unknown>, height: number, timestampMs: number) {
  const { address, ...fields } = account
  return { address, height, timestamp_ms: timestampMs, ...fields }
}

/**
 * external_quote, pushed every block once the market has a quote: the latest accepted quote and its
 * age at this block, `age_ms` = block time - the quote's source_ts_ms (the lag the chain's staleness
 * rule measures; negative while the quote's source time is ahead of the block's).
 */
export function quoteBody(
  m: FeedMarket,
  quote: QuoteJson,
  stats: Record<string, unknown> | undefined,
  height: number,
  timestampMs: number,
) {
  const age_ms = timestampMs - quote.source_ts_ms
  return stats === undefined
    ? { symbol: m.symbol, height, timestamp_ms: timestampMs, quote, age_ms }
    : { symbol: m.symbol, height, timestamp_ms: timestampMs, quote, age_ms, market_stats: stats }
}

export function marksBody(marks: Record<string, string>, height: number, timestampMs: number) {
  return { height, timestamp_ms: timestampMs, marks }
}

/** blocks.live: the header (envelopes empty), the envelopes with timestamp_ms, the index watermarks. */
export function blocksLiveBody(block: FeedBlock, symbolOf: (marketId: number | null) => string | null, status: HistoryStatus) {
  const h = block.header
  return {
    block: {
      parent: h.parent,
      height: h.height,
      timestamp_ms: h.timestampMs,
      digest: h.digest,
      envelope_count: h.envelopeCount,
      event_count: h.eventCount,
      state_root: h.stateRoot,
      envelopes: [],
    },
    envelopes: block.envelopes.map((e) => ({
      height: e.height,
      envelope_idx: e.envelopeIdx,
      tx_hash: e.txHash,
      signer: e.signer,
      nonce: e.nonce,
      status: e.status,
      action_kind: e.actionKind,
      market_id: e.marketId,
      symbol: symbolOf(e.marketId),
      action: JSON.parse(e.actionJson) as unknown,
      reason: e.reasonJson === null ? null : (JSON.parse(e.reasonJson) as unknown),
      timestamp_ms: h.timestampMs,
    })),
    watermark: status.watermark,
    block_count: status.block_count,
    node_tip: status.node_tip,
    behind: status.behind,
  }
}

/**
 * The frame texts (after `{"seq":N,`) of the reply to a post frame (docs/websocket.md#posting-actions):
 * `"op":"post","id":…,` then the /action reply's `result` or `error`. An accepted result whose frame
 * would pass the frame limit (a taker order's many fills) is split along `result.events` as a push
 * is (framesOf): parts `{seq, op, id, part, parts, result}`, each result repeating every other field.
 */
export function postReplyFrames(
  id: string | number,
  reply: { readonly result: unknown } | { readonly error: unknown },
  frameBytesMax: number,
): string[] {
  const head = `"op":"post","id":${JSON.stringify(id)},`
  if (!('result' in reply)) return [`${head}"error":${JSON.stringify(reply.error)}}`]
  const result = reply.result
  const whole = `${head}"result":${actionResultJson(result)}}`
  // `{"seq":` and up to 16 digits and a comma.
  const budget = frameBytesMax - 25
  if (whole.length * 3 <= budget || Buffer.byteLength(whole, 'utf8') <= budget) return [whole]
  if (typeof result !== 'object' || result === null || !Array.isArray((result as { events?: unknown }).events)) return [whole]
  // framesOf leaves FRAME_PREFIX_BYTES_MAX for a push's prefix; a part here spends the seq, the head
  // and `"part":N,"parts":N,"result":{` (counted by framesOf too) before the result's fields.
  const headBytes = Buffer.byteLength(head, 'utf8')
  const texts = framesOf(push(result as Record<string, unknown>, ['events']), frameBytesMax - 40 - headBytes - 16 + FRAME_PREFIX_BYTES_MAX)
  if (texts.length === 1) return [whole]
  return texts.map((t) => {
    const m = /^"part":(\d+),"parts":(\d+),/.exec(t)!
    return `${head}"part":${m[1]},"parts":${m[2]},"result":{${t.slice(m[0].length)}}`
  })
}
