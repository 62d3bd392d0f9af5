// Push frame bodies of spec §6.2, without `topic` and `seq` (the hub adds both per connection, since
// each client keeps its own spelling of a topic and its own sequence). `rest(obj)` turns a body into
// the text after `{"seq":N,"topic":"...",`, built once per block and shared by every subscriber.
import type { BookSnapshot, FeedMarket, HotFeed, QuoteJson } from '../../feed/hot-feed.ts'
import type { HistoryStatus } from '../../feed/source.ts'
import type { FeedBlock, RecentTrade } from '../../feed/types.ts'

/** A body's JSON without its opening brace, ready to follow `{"seq":N,"topic":...,`. */
export function rest(body: object): string {
  return JSON.stringify(body).slice(1)
}

const strip0x = (h: string) => (h.startsWith('0x') ? h.slice(2) : h)

export function blockBody(block: FeedBlock) {
  const h = block.header
  return {
    height: h.height, timestamp_ms: h.timestampMs, digest: strip0x(h.digest), state_root: strip0x(h.stateRoot),
    envelope_count: h.envelopeCount, event_count: h.eventCount,
  }
}

/** The book body as text: its levels are spliced in from the cached snapshot JSON. */
export function bookRest(m: FeedMarket, snap: BookSnapshot, height: number, timestampMs: number): string {
  return `"symbol":${JSON.stringify(m.symbol)},"height":${height},"timestamp_ms":${timestampMs},"state_hash":"${snap.stateHash}",${snap.levelsJson}}`
}

export function bboBody(feed: HotFeed, m: FeedMarket, height: number, timestampMs: number) {
  const b = feed.bbo(m)
  return { symbol: m.symbol, height, timestamp_ms: timestampMs, best_bid: b.best_bid, best_ask: b.best_ask }
}

export function tradesBody(m: FeedMarket, trades: readonly RecentTrade[], height: number, timestampMs: number) {
  return {
    symbol: m.symbol, height, timestamp_ms: timestampMs,
    trades: trades.map((t) => ({
      block_height: t.block_height, event_seq: t.event_seq, timestamp_ms: t.timestamp_ms, market_id: t.market_id,
      price: t.price, qty: t.qty, notional: t.notional, side: t.side,
    })),
  }
}

export function accountBody(account: Record<string, unknown>, height: number, timestampMs: number) {
  const { address, ...fields } = account
  return { address, height, timestamp_ms: timestampMs, ...fields }
}

export function quoteBody(m: FeedMarket, quote: QuoteJson, stats: Record<string, unknown> | undefined, height: number, timestampMs: number) {
  return stats === undefined
    ? { symbol: m.symbol, height, timestamp_ms: timestampMs, quote }
    : { symbol: m.symbol, height, timestamp_ms: timestampMs, quote, market_stats: stats }
}

export function marksBody(marks: Record<string, string>, height: number, timestampMs: number) {
  return { height, timestamp_ms: timestampMs, marks }
}

/** blocks.live: the header (envelopes empty), the envelopes with timestamp_ms, the index watermarks. */
export function blocksLiveBody(block: FeedBlock, symbolOf: (marketId: number | null) => string | null, status: HistoryStatus) {
  const h = block.header
  return {
    block: {
      parent: h.parent, height: h.height, timestamp_ms: h.timestampMs, digest: h.digest,
      envelope_count: h.envelopeCount, event_count: h.eventCount, state_root: h.stateRoot, envelopes: [],
    },
    envelopes: block.envelopes.map((e) => ({
      height: e.height, envelope_idx: e.envelopeIdx, tx_hash: e.txHash, signer: e.signer, nonce: e.nonce, status: e.status,
      action_kind: e.actionKind, market_id: e.marketId, symbol: symbolOf(e.marketId),
      action: JSON.parse(e.actionJson) as unknown, reason: e.reasonJson === null ? null : (JSON.parse(e.reasonJson) as unknown),
      timestamp_ms: h.timestampMs,
    })),
    watermark: status.watermark,
    block_count: status.block_count,
    node_tip: status.node_tip,
    behind: status.behind,
  }
}
