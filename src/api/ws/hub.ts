// The WebSocket hub (docs/websocket.md#websocket-protocol): connections, their topics, and the
// pushes of every committed block. Subscriptions are indexed by canonical key, so a block's work is
// proportional to what changed and to who listens: each frame body is built once per block and
// shared by every subscriber, which only adds its own `seq` and its own spelling of the topic. A
// subscriber gets its snapshot right after the confirmation, before any later push (everything runs
// on one thread, between blocks).

import type { AccountInterest, BlockDelta, FeedMarket, HotFeed } from '../../feed/hot-feed.ts'
import type { FeedSource, HistoryStatus } from '../../feed/source.ts'
import type { FeedBlock } from '../../feed/types.ts'
import { createLogger, type LogLine, logLine } from '../../lib/log.ts'
import { CANDLE_INTERVALS } from '../../wire/candles.ts'
import { BatchScope, type HeldTopic, WsConnection, type WsTransport } from './connection.ts'
import {
  accountBody,
  bboBody,
  blockBody,
  blocksLiveBody,
  bookPush,
  fitConfirmation,
  framesOf,
  marksBody,
  type Push,
  push,
  quoteBody,
  tradesBody,
} from './frames.ts'
import type { WsLimits } from './limits.ts'
import { parseTopic, type Subscription, shownJson, type TopicType } from './topics.ts'

/** A subscribed topic: its subscribers (each with its spellings, JSON-encoded) and the last pushed state. */
interface Topic {
  readonly key: string
  readonly sub: Subscription
  readonly subscribers: Map<WsConnection, string[]>
  /** What the topic's subscribers last received, for change detection (book levels, BBO). */
  last: string | undefined
}

export interface WsHubOptions {
  readonly now?: () => number
  readonly log?: LogLine
  /**
   * The node's state may hold a block executed ahead of its tick (ChainNode.whenSettled): a
   * subscription's first push and the accounts' re-pushes, which read it, wait until it does not
   * (and unsubscribes with the subscribes, so a connection's frames keep their order). Absent: the
   * state is always settled.
   */
  readonly reads?: SettledReads
}

/** Committed blocks kept for blocks.live while the history index catches up. */
export const LIVE_BLOCKS_KEPT = 2_000

/** Close codes the hub uses. */
export const CLOSE_IDLE = 1001
export const CLOSE_TOO_MANY = 1013

/** A topic's key within its type's group: its address for a per-account topic (WsHub.accountInterest), else its topic key. */
const memberKey = (sub: Subscription, key: string): string => ('address' in sub ? sub.address : key)

export class WsHub {
  private readonly connections = new Set<WsConnection>()
  /** The batch every connection's frames wait in during a block's replies and pushes. */
  private readonly batches = new BatchScope()
  private readonly topics = new Map<string, Topic>()
  /** The topics held, by type, each group keyed by memberKey. */
  private readonly byType = new Map<TopicType, Map<string, Topic>>()
  private readonly now: () => number
  private readonly log: LogLine
  private timer: ReturnType<typeof setInterval> | undefined
  private lastPingMs: number
  private lastAccountRefreshMs: number
  private readonly reads: SettledReads | undefined
  /** blocks.live follows the history index (else it is pushed at commit with tip-only watermarks). */
  private ingestFollowed = false
  /** Committed blocks not yet reported ingested, by height (at most LIVE_BLOCKS_KEPT). */
  private readonly recentBlocks = new Map<number, FeedBlock>()
  /** The last block pushed on blocks.live (or skipped). */
  private liveThrough = 0

  /**
   * The accounts whose pushes someone here would be sent: the hot feed makes only their rows. It
   * asks about every order event's account, so a per-account topic's group is keyed by its address
   * (memberKey): a topic key made and hashed for each question was 4% of the block thread under
   * 50-order batches (CPU profile of scripts/bench/actions.ts --mode batch), where the account's
   * own string, taken from the state, keeps its hash.
   */
  readonly accountInterest: AccountInterest = {
    accounts: () => (this.byType.get('account')?.size ?? 0) > 0,
    orderUpdates: (address) => this.byType.get('orderUpdates')?.has(address) ?? false,
    triggerUpdates: (address) => this.byType.get('triggerUpdates')?.has(address) ?? false,
    userFills: (address) => this.byType.get('userFills')?.has(address) ?? false,
  }

  constructor(
    private feed: HotFeed,
    private readonly source: FeedSource,
    readonly limits: WsLimits,
    options: WsHubOptions = {},
  ) {
    this.now = options.now ?? Date.now
    this.log = options.log ?? logLine(createLogger('ws'))
    this.reads = options.reads
    this.lastPingMs = this.now()
    this.lastAccountRefreshMs = this.now()
  }

  get connectionCount(): number {
    return this.connections.size
  }

  /** Frames dropped for slow consumers and gap frames sent, over the hub's life (the /metrics counters). */
  private closedDropped = 0
  private closedGaps = 0

  get droppedFramesTotal(): number {
    let n = this.closedDropped
    for (const conn of this.connections) n += conn.dropped
    return n
  }

  get gapFramesTotal(): number {
    let n = this.closedGaps
    for (const conn of this.connections) n += conn.gaps
    return n
  }

  /** Starts the timers: heartbeat, idle and send timeouts, the account fallback push. */
  start(): void {
    if (this.timer !== undefined) return
    const l = this.limits
    const period = Math.max(
      10,
      Math.min(1_000, Math.floor(Math.min(l.pingIntervalMs, l.idleTimeoutMs, l.sendTimeoutMs, l.accountRefreshMs) / 4)),
    )
    this.timer = setInterval(() => this.tick(), period)
    this.timer.unref?.()
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
  }

  /**
   * The feed was rebuilt after a failure: this block's pushes are lost, so every connection gets a
   * gap frame (it must resynchronize) and change detection starts over.
   */
  replaceFeed(feed: HotFeed): void {
    this.feed = feed
    for (const topic of this.topics.values()) topic.last = undefined
    for (const conn of this.connections) conn.signalGap()
  }

  /** A new socket; undefined (and closed with 1013) past the connection limit. */
  open(transport: WsTransport): WsConnection | undefined {
    if (this.connections.size >= this.limits.connectionsMax) {
      transport.close(CLOSE_TOO_MANY, `too many connections (${this.limits.connectionsMax})`)
      return undefined
    }
    const conn = new WsConnection(transport, this.limits, this.now, this.batches)
    this.connections.add(conn)
    return conn
  }

  /** The socket closed (either side): forget the connection and its topics. */
  closed(conn: WsConnection): void {
    if (!this.connections.delete(conn)) return
    conn.closed = true
    this.closedDropped += conn.dropped
    this.closedGaps += conn.gaps
    for (const held of conn.topics.values()) this.unindex(conn, held)
    conn.topics.clear()
  }

  /** Any frame from the client (message, ping, pong) keeps the connection alive. */
  activity(conn: WsConnection): void {
    conn.lastActivityMs = this.now()
  }

  /**
   * A client message: a text frame's text, or a binary frame's bytes (read as UTF-8 text). post:
   * where a `post` frame goes (ws/posts.ts,
   * docs/websocket.md#posting-actions); without it posting is not offered.
   */
  message(
    conn: WsConnection,
    message: string | Uint8Array,
    post?: (conn: WsConnection, frame: Readonly<Record<string, unknown>>) => void,
  ): void {
    this.activity(conn)
    let value: unknown
    try {
      value = JSON.parse(typeof message === 'string' ? message : new TextDecoder().decode(message))
    } catch {
      this.error(conn, 'invalid JSON')
      return
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      this.error(conn, 'a frame must be a JSON object with op and topics')
      return
    }
    const { op, topics } = value as { op?: unknown; topics?: unknown }
    if (op === 'post' && post !== undefined) {
      post(conn, value as Record<string, unknown>)
      return
    }
    if (op !== 'subscribe' && op !== 'unsubscribe') {
      this.error(conn, `unknown op ${shownJson(op)}: use subscribe, unsubscribe${post === undefined ? '' : ' or post'}`)
      return
    }
    if (!Array.isArray(topics)) {
      this.error(conn, 'topics must be an array of strings')
      return
    }
    // While the node holds a block open, handled once it is committed (a few milliseconds): a first
    // push reads the state. Unsubscribes wait too, so a connection's frames keep their order.
    const settled = this.reads?.whenSettled()
    if (settled !== undefined) {
      void settled.then(() => this.connections.has(conn) && this.message(conn, message, post))
      return
    }
    if (op === 'subscribe') this.subscribe(conn, topics)
    else this.unsubscribe(conn, topics)
  }

  private error(conn: WsConnection, message: string): void {
    conn.deliver((seq) => JSON.stringify({ seq, op: 'error', message }))
  }

  /** Full replacement of the connection's set; snapshots follow the confirmation. */
  private subscribe(conn: WsConnection, requested: readonly unknown[]): void {
    const accepted = new Map<string, HeldTopic>()
    const rejected: string[] = []
    const resolve = (symbol: string) => this.feed.resolve(symbol)
    for (const t of requested) {
      const parsed = parseTopic(t, resolve)
      if (!parsed.ok) rejected.push(parsed.message)
      else if (accepted.has(t as string)) continue
      else if (accepted.size >= this.limits.topicsPerConnectionMax)
        rejected.push(`${String(t)}: more than ${this.limits.topicsPerConnectionMax} topics on one connection`)
      else accepted.set(t as string, { topic: t as string, topicJson: JSON.stringify(t), key: parsed.key, sub: parsed.sub })
    }
    for (const held of conn.topics.values()) this.unindex(conn, held)
    conn.topics.clear()
    for (const held of accepted.values()) {
      conn.topics.set(held.topic, held)
      this.index(conn, held)
    }
    this.confirm(conn, 'subscribed', [...accepted.keys()], rejected)
    for (const held of accepted.values()) this.initialPush(conn, this.topics.get(held.key)!, held)
  }

  /** Incremental removal (every spelling of the named subscription); topics need not be subscribed. */
  private unsubscribe(conn: WsConnection, requested: readonly unknown[]): void {
    const removed: string[] = []
    const rejected: string[] = []
    for (const t of requested) {
      const parsed = parseTopic(t, (symbol) => this.feed.resolve(symbol))
      if (!parsed.ok) {
        rejected.push(parsed.message)
        continue
      }
      removed.push(t as string)
      for (const held of [...conn.topics.values()]) {
        if (held.key !== parsed.key) continue
        conn.topics.delete(held.topic)
        this.unindex(conn, held)
      }
    }
    this.confirm(conn, 'unsubscribed', removed, rejected)
  }

  /** A subscribed / unsubscribed frame, its lists cut to the frame limit (fitConfirmation). */
  private confirm(conn: WsConnection, op: 'subscribed' | 'unsubscribed', listed: string[], refused: string[]): void {
    const { topics, rejected } = fitConfirmation(listed, refused, this.limits.frameBytesMax)
    conn.deliver((seq) => JSON.stringify(rejected.length === 0 ? { seq, op, topics } : { seq, op, topics, rejected }))
  }

  private index(conn: WsConnection, held: HeldTopic): void {
    const key = held.key
    let topic = this.topics.get(key)
    if (topic === undefined) {
      topic = { key, sub: held.sub, subscribers: new Map(), last: undefined }
      this.topics.set(key, topic)
      let group = this.byType.get(held.sub.type)
      if (group === undefined) {
        group = new Map()
        this.byType.set(held.sub.type, group)
      }
      group.set(memberKey(held.sub, key), topic)
    }
    const spellings = topic.subscribers.get(conn)
    if (spellings === undefined) topic.subscribers.set(conn, [held.topicJson])
    else spellings.push(held.topicJson)
  }

  private unindex(conn: WsConnection, held: HeldTopic): void {
    const topic = this.topics.get(held.key)
    if (topic === undefined) return
    const spellings = topic.subscribers.get(conn)
    if (spellings === undefined) return
    const i = spellings.indexOf(held.topicJson)
    if (i >= 0) spellings.splice(i, 1)
    if (spellings.length === 0) topic.subscribers.delete(conn)
    if (topic.subscribers.size > 0) return
    this.topics.delete(held.key)
    this.byType.get(topic.sub.type)?.delete(memberKey(topic.sub, held.key))
  }

  /**
   * Frames of one push to one subscription: one frame, or its parts when that frame would pass the
   * frame limit (docs/websocket.md#split-frames). The parts go out back to back, so they take
   * consecutive seqs with no other frame in between.
   */
  private sendTo(conn: WsConnection, topicJson: string, p: Push): void {
    for (const part of this.partsOf(p)) conn.deliver((seq) => `{"seq":${seq},"topic":${topicJson},${part}`)
  }

  private broadcast(topic: Topic, p: Push): void {
    if (topic.subscribers.size === 0) return
    const parts = this.partsOf(p)
    for (const [conn, spellings] of topic.subscribers) {
      for (const topicJson of spellings) for (const part of parts) conn.deliver((seq) => `{"seq":${seq},"topic":${topicJson},${part}`)
    }
  }

  private partsOf(p: Push): string[] {
    return framesOf(p, this.limits.frameBytesMax)
  }

  private ready(m: FeedMarket): boolean {
    return this.feed.isReady(m.row.routing)
  }

  /** The initial push of a topic (docs/websocket.md#websocket-protocol; none for block, trades, quotes, user streams and blocks.live). */
  private initialPush(conn: WsConnection, topic: Topic, held: HeldTopic): void {
    const feed = this.feed
    const sub = held.sub
    const { height, timestampMs } = feed
    switch (sub.type) {
      case 'book': {
        const m = feed.market(sub.marketId)
        if (m === undefined || !this.ready(m)) return
        const snap = feed.snapshot(m, sub.depth)
        topic.last ??= snap.levelsJson
        this.sendTo(conn, held.topicJson, bookPush(m, snap, height, timestampMs))
        return
      }
      case 'bbo': {
        const m = feed.market(sub.marketId)
        if (m === undefined || !this.ready(m)) return
        const body = bboBody(feed, m, height, timestampMs)
        topic.last ??= `${body.best_bid}|${body.best_ask}`
        this.sendTo(conn, held.topicJson, push(body))
        return
      }
      case 'marks':
        if (!feed.isReady('native')) return
        this.sendTo(conn, held.topicJson, push(marksBody(feed.marks(), height, timestampMs), ['marks']))
        return
      case 'account':
        this.sendTo(conn, held.topicJson, push(accountBody(this.source.account(sub.address), height, timestampMs), ['positions']))
        return
      case 'candles': {
        const m = feed.market(sub.marketId)
        const candle = m === undefined || !this.ready(m) ? undefined : feed.currentCandle(m, sub.interval)
        if (candle !== undefined) this.sendTo(conn, held.topicJson, push({ data: candle }))
        return
      }
      default:
        return
    }
  }

  /** The pushes of one committed block; `block` and `blocks.live` come last, closing the block. */
  onBlock(delta: BlockDelta): void {
    // Each connection's frames of this block leave together, in one corked write.
    this.startBatches()
    try {
      this.pushBlock(delta)
    } finally {
      this.endBatches()
    }
  }

  /** Holds every connection's frames until endBatches, which sends each connection's in one corked write. */
  startBatches(): void {
    this.batches.start()
  }

  endBatches(): void {
    this.batches.end()
  }

  private pushBlock(delta: BlockDelta): void {
    const feed = this.feed
    const { height, timestampMs } = delta
    for (const topic of this.group('book')) {
      const sub = topic.sub as Extract<Subscription, { type: 'book' }>
      if (!delta.booksChanged.has(sub.marketId)) continue
      const m = feed.market(sub.marketId)!
      const snap = feed.snapshot(m, sub.depth)
      if (snap.levelsJson === topic.last) continue
      topic.last = snap.levelsJson
      this.broadcast(topic, bookPush(m, snap, height, timestampMs))
    }
    for (const topic of this.group('bbo')) {
      const sub = topic.sub as Extract<Subscription, { marketId: number }>
      if (!delta.bboChanged.has(sub.marketId)) continue
      const body = bboBody(feed, feed.market(sub.marketId)!, height, timestampMs)
      const state = `${body.best_bid}|${body.best_ask}`
      if (state === topic.last) continue
      topic.last = state
      this.broadcast(topic, push(body))
    }
    for (const [marketId, trades] of delta.trades) {
      const topic = this.topics.get(`trades:${marketId}`)
      if (topic !== undefined) this.broadcast(topic, push(tradesBody(feed.market(marketId)!, trades, height, timestampMs), ['trades']))
    }
    for (const marketId of delta.candlesChanged) {
      const m = feed.market(marketId)!
      for (const interval of CANDLE_INTERVALS) {
        const topic = this.topics.get(`candles:${marketId}:${interval}`)
        const bar = topic === undefined ? undefined : m.candles.latest(interval)
        if (topic !== undefined && bar !== undefined) this.broadcast(topic, push({ data: feed.candle(m, interval, bar) }))
      }
    }
    const marksTopic = this.topics.get('marks')
    if (marksTopic !== undefined && delta.marksChanged.size > 0) {
      const marks: Record<string, string> = {}
      for (const [marketId, mark] of delta.marksChanged) marks[feed.market(marketId)!.symbol] = mark
      this.broadcast(marksTopic, push(marksBody(marks, height, timestampMs), ['marks']))
    }
    // external_quote: every block, the market's latest accepted quote with its age at this block.
    for (const topic of this.group('external_quote')) {
      const sub = topic.sub as Extract<Subscription, { marketId: number }>
      const m = feed.market(sub.marketId)
      if (m === undefined || m.lastQuote === null || m.lifecycle === 'Delisted') continue
      this.broadcast(topic, push(quoteBody(m, m.lastQuote, this.source.marketStats(m.marketId), height, timestampMs)))
    }
    for (const [address, fills] of delta.userFills) {
      const topic = this.topics.get(`userFills:${address}`)
      if (topic !== undefined) this.broadcast(topic, push({ address, height, timestamp_ms: timestampMs, fills }, ['fills']))
    }
    for (const [address, updates] of delta.orderUpdates) {
      const topic = this.topics.get(`orderUpdates:${address}`)
      if (topic !== undefined) this.broadcast(topic, push({ address, height, timestamp_ms: timestampMs, updates }, ['updates']))
    }
    for (const [address, updates] of delta.triggerUpdates) {
      const topic = this.topics.get(`triggerUpdates:${address}`)
      if (topic !== undefined) this.broadcast(topic, push({ address, height, timestamp_ms: timestampMs, updates }, ['updates']))
    }
    for (const address of delta.touched) {
      const topic = this.topics.get(`account:${address}`)
      if (topic !== undefined) this.broadcast(topic, push(accountBody(this.source.account(address), height, timestampMs), ['positions']))
    }
    const blockTopic = this.topics.get('block')
    if (blockTopic !== undefined) this.broadcast(blockTopic, push(blockBody(delta.block)))
    if (this.ingestFollowed) {
      // blocks.live waits for the history index to ingest the block (ingested()).
      this.recentBlocks.set(height, delta.block)
      for (const h of this.recentBlocks.keys()) {
        if (this.recentBlocks.size <= LIVE_BLOCKS_KEPT) break
        this.recentBlocks.delete(h)
      }
    } else {
      this.pushLive(delta.block, this.source.historyStatus() ?? tipOnlyStatus(height))
    }
  }

  private pushLive(block: FeedBlock, status: HistoryStatus): void {
    const topic = this.topics.get('blocks.live')
    if (topic === undefined) return
    const symbolOf = (id: number | null) => (id === null ? null : (this.feed.market(id)?.symbol ?? null))
    this.broadcast(topic, push(blocksLiveBody(block, symbolOf, status), ['envelopes']))
  }

  /**
   * From now on blocks.live follows the history index (docs/websocket.md#websocket-protocol: each
   * newly ingested block): committed blocks wait until ingested() reports the index has them.
   * `ingestedThrough` is the index's ingest watermark now.
   */
  followIngest(ingestedThrough: number): void {
    this.ingestFollowed = true
    // Blocks the feed saw before (replayed or committed earlier) are not news on blocks.live.
    this.liveThrough = Math.max(ingestedThrough, this.feed.height)
  }

  /** The history index ingested through `watermark`: push blocks.live for the blocks new to it. */
  ingested(watermark: number, status: HistoryStatus): void {
    if (watermark <= this.liveThrough) return
    const from = this.liveThrough + 1
    this.liveThrough = watermark
    const topic = this.topics.get('blocks.live')
    this.startBatches()
    try {
      // Bounded by the blocks kept: older ones were dropped while the index lagged.
      let lost = false
      for (let h = Math.max(from, watermark - LIVE_BLOCKS_KEPT + 1); h <= watermark; h++) {
        const block = this.recentBlocks.get(h)
        this.recentBlocks.delete(h)
        if (block === undefined) lost = true
        else if (topic !== undefined) this.pushLive(block, status)
      }
      if ((lost || from < watermark - LIVE_BLOCKS_KEPT + 1) && topic !== undefined) {
        // Blocks the index took in while they were no longer kept here: their subscribers must resync.
        for (const conn of topic.subscribers.keys()) conn.signalGap()
      }
    } finally {
      this.endBatches()
    }
    for (const h of this.recentBlocks.keys()) if (h <= watermark) this.recentBlocks.delete(h)
  }

  private group(type: TopicType): IterableIterator<Topic> {
    return (this.byType.get(type) ?? new Map<string, Topic>()).values()
  }

  /** Timers: slow consumers and idle connections are cut, pings sent, accounts re-pushed. */
  tick(): void {
    const now = this.now()
    const l = this.limits
    for (const conn of this.connections) {
      if (conn.blockedSinceMs !== null && now - conn.blockedSinceMs > l.sendTimeoutMs) {
        this.log(`ws: connection ${conn.id} cut: a frame waited more than ${l.sendTimeoutMs} ms (slow consumer)`, 'warn')
        conn.terminate()
        this.closed(conn)
      } else if (now - conn.lastActivityMs > l.idleTimeoutMs) {
        conn.close(CLOSE_IDLE, `idle timeout: nothing received for ${l.idleTimeoutMs} ms`)
        this.closed(conn)
      }
    }
    if (now - this.lastPingMs >= l.pingIntervalMs) {
      this.lastPingMs = now
      for (const conn of this.connections) conn.transport.ping()
    }
    if (now - this.lastAccountRefreshMs >= l.accountRefreshMs && (this.reads?.isSettled() ?? true)) {
      this.lastAccountRefreshMs = now
      for (const topic of this.group('account')) {
        const sub = topic.sub as Extract<Subscription, { address: string }>
        this.broadcast(topic, push(accountBody(this.source.account(sub.address), this.feed.height, this.feed.timestampMs), ['positions']))
      }
    }
  }
}

/** Whether a state holds only committed blocks, and when it will (ChainNode). */
export interface SettledReads {
  isSettled(): boolean
  whenSettled(): Promise<void> | undefined
}

/** blocks.live watermarks without a history index in this process: the chain tip only (docs/history-api.md#status). */
function tipOnlyStatus(height: number): HistoryStatus {
  return { watermark: null, block_count: height, node_tip: height, behind: height + 1 }
}
