// Topic syntax of the WebSocket (docs/websocket.md#websocket-protocol): the 12 topics, symbols
// resolved by docs/markets.md#symbol-resolution (full
// symbol or base-asset prefix, case-insensitive, Delisted skipped), addresses with or without 0x.
// Each valid topic maps to a canonical key, so `book.btc` and `book.BTC-USD.50` are one subscription.

import { type FeedMarket, WS_BOOK_DEPTH_DEFAULT, WS_BOOK_DEPTH_MAX } from '../../feed/hot-feed.ts'
import { type CandleInterval, isCandleInterval } from '../../wire/candles.ts'

export type Subscription =
  | { readonly type: 'block' }
  | { readonly type: 'marks' }
  | { readonly type: 'blocks.live' }
  | { readonly type: 'book'; readonly marketId: number; readonly depth: number }
  | { readonly type: 'trades' | 'bbo' | 'external_quote'; readonly marketId: number }
  | { readonly type: 'candles'; readonly marketId: number; readonly interval: CandleInterval }
  | { readonly type: 'account' | 'userFills' | 'orderUpdates' | 'triggerUpdates'; readonly address: string }

export type TopicType = Subscription['type']

/** Longest topic string looked at. */
export const TOPIC_LENGTH_MAX = 128

export type ParsedTopic =
  | { readonly ok: true; readonly key: string; readonly sub: Subscription }
  | { readonly ok: false; readonly message: string }

const ADDRESS_TOPICS = new Set(['account', 'userFills', 'orderUpdates', 'triggerUpdates'])
const MARKET_TOPICS = new Set(['trades', 'bbo', 'external_quote'])
const HEX40 = /^(?:0x)?([0-9a-fA-F]{40})$/

/** The canonical key of a subscription. */
export function topicKey(sub: Subscription): string {
  switch (sub.type) {
    case 'block':
    case 'marks':
    case 'blocks.live':
      return sub.type
    case 'book':
      return `book:${sub.marketId}:${sub.depth}`
    case 'candles':
      return `candles:${sub.marketId}:${sub.interval}`
    case 'trades':
    case 'bbo':
    case 'external_quote':
      return `${sub.type}:${sub.marketId}`
    default:
      return `${sub.type}:${sub.address}`
  }
}

/**
 * A client's value as an error message shows it: its JSON, cut to TOPIC_LENGTH_MAX characters, so
 * a huge value cannot make a reply frame pass the frame limit (docs/websocket.md#split-frames).
 */
export function shownJson(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value)
  return json.length <= TOPIC_LENGTH_MAX ? json : `${json.slice(0, TOPIC_LENGTH_MAX)}…`
}

/** Parses a topic string; `resolve` maps a symbol to a live market. */
export function parseTopic(topic: unknown, resolve: (symbol: string) => FeedMarket | undefined): ParsedTopic {
  if (typeof topic !== 'string') return { ok: false, message: `${shownJson(topic)}: a topic must be a string` }
  if (topic.length === 0 || topic.length > TOPIC_LENGTH_MAX)
    return { ok: false, message: `${JSON.stringify(topic.slice(0, TOPIC_LENGTH_MAX))}: a topic has 1 to ${TOPIC_LENGTH_MAX} characters` }
  const ok = (sub: Subscription): ParsedTopic => ({ ok: true, key: topicKey(sub), sub })
  const fail = (why: string): ParsedTopic => ({ ok: false, message: `${topic}: ${why}` })
  if (topic === 'block' || topic === 'marks' || topic === 'blocks.live') return ok({ type: topic })
  const dot = topic.indexOf('.')
  if (dot <= 0) return fail('unknown topic')
  const head = topic.slice(0, dot)
  const rest = topic.slice(dot + 1)
  if (rest === '') return fail(`${head} needs a ${ADDRESS_TOPICS.has(head) ? 'hex address' : 'symbol'}`)

  if (ADDRESS_TOPICS.has(head)) {
    const m = HEX40.exec(rest)
    if (m === null) return fail('not a 20-byte hex address')
    return ok({ type: head as 'account', address: `0x${m[1]!.toLowerCase()}` })
  }
  const market = (symbol: string) => resolve(symbol)
  if (MARKET_TOPICS.has(head)) {
    const m = market(rest)
    if (m === undefined) return fail('market not found')
    if (head === 'external_quote' && m.row.routing !== 'external_peg') return fail(`${m.symbol} is not an external-peg market`)
    return ok({ type: head as 'trades', marketId: m.marketId })
  }
  if (head === 'book') {
    // book.{symbol}[.{depth}]: a trailing all-digit part is the depth (0 or absent = 50, above 500 = 500).
    const last = rest.lastIndexOf('.')
    let symbol = rest
    let depth = WS_BOOK_DEPTH_DEFAULT
    if (last > 0) {
      const d = rest.slice(last + 1)
      if (!/^\d{1,9}$/.test(d)) return fail('the depth must be a non-negative integer')
      symbol = rest.slice(0, last)
      const n = Number(d)
      depth = n === 0 ? WS_BOOK_DEPTH_DEFAULT : Math.min(n, WS_BOOK_DEPTH_MAX)
    }
    const m = market(symbol)
    if (m === undefined) return fail('market not found')
    return ok({ type: 'book', marketId: m.marketId, depth })
  }
  if (head === 'candles') {
    const last = rest.lastIndexOf('.')
    if (last <= 0) return fail('expected candles.{symbol}.{interval}')
    const interval = rest.slice(last + 1)
    if (!isCandleInterval(interval)) return fail(`unknown interval ${interval} (1m, 3m, 5m, 15m, 30m, 1h, 2h, 4h, 8h, 12h, 1d, 3d, 1w, 1M)`)
    const m = market(rest.slice(0, last))
    if (m === undefined) return fail('market not found')
    return ok({ type: 'candles', marketId: m.marketId, interval })
  }
  return fail('unknown topic')
}
