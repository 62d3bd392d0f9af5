// Wires the hot feed and the WebSocket hub to a node: seeds the feed from the chain once, then
// feeds both every committed block (ChainNode.onBlock, called after the block is durable). One
// runtime per node, so every route family (hot-read REST, /ws, /status) sees the same feed.
import { HotFeed, STALE_AFTER_MS_DEFAULT } from '../../feed/hot-feed.ts'
import type { HistoryStatus } from '../../feed/source.ts'
import type { PipelineProgress } from '../../indexer/pipeline.ts'
import { createLogger, type LogLine, logLine } from '../../lib/log.ts'
import type { ChainNode } from '../../node/chain-node.ts'
import { DAY_STATE_SAVE_EVERY_BLOCKS, resumeDayState, saveDayState } from './day-state-file.ts'
import { WsHub } from './hub.ts'
import { WS_LIMITS_DEFAULT, type WsLimits } from './limits.ts'
import { nodeFeedSource } from './node-feed-source.ts'

export interface FeedRuntimeOptions {
  readonly ws?: WsLimits
  /** The node's block time: the feed is stale after max(5 s, 3 blocks) without a block. */
  readonly blockTimeMs?: number
  readonly log?: LogLine
}

export interface FeedRuntime {
  readonly feed: HotFeed
  readonly hub: WsHub
  /** Plugs in the history index status for blocks.live (the indexer calls it when it starts). */
  setHistoryStatus(read: () => HistoryStatus | undefined): void
  /**
   * Makes blocks.live follow a running history index: each block is pushed once the index has
   * ingested it, with the index's watermarks (docs/websocket.md#websocket-protocol: "each block
   * once the history index has it").
   */
  followHistory(index: HistoryProgressSource): void
  /** Plugs in MarketStatsResponse fields for the external_quote push. */
  setMarketStats(read: (marketId: number) => Record<string, unknown> | undefined): void
}

/** What blocks.live needs of the history index (indexer/history-index.ts HistoryIndex has it). */
export interface HistoryProgressSource {
  readonly progress: PipelineProgress
  onProgress(listener: (p: PipelineProgress) => void): void
}

const runtimes = new WeakMap<ChainNode, FeedRuntime>()

/** The node's feed runtime if it was created already (the metrics read it without creating it). */
export function existingFeedRuntime(node: ChainNode): FeedRuntime | undefined {
  return runtimes.get(node)
}

/** The node's feed runtime, created (and seeded) on first use; later options are ignored. */
export function feedRuntime(node: ChainNode, options: FeedRuntimeOptions = {}): FeedRuntime {
  const existing = runtimes.get(node)
  if (existing !== undefined) return existing
  const log = options.log ?? logLine(createLogger('feed'))
  const extras: {
    historyStatus?: () => HistoryStatus | undefined
    marketStats?: (marketId: number) => Record<string, unknown> | undefined
  } = {}
  const source = nodeFeedSource(node, extras)
  const staleAfterMs = Math.max(STALE_AFTER_MS_DEFAULT, 3 * (options.blockTimeMs ?? 0))
  // Seeded from the chain at its tip; the day's counters and open candles from the saved day state.
  const seeded = (): HotFeed => {
    const f = new HotFeed(source, { staleAfterMs, log })
    f.seed()
    resumeDayState(node.dataDir, f, source, log)
    return f
  }
  const save = () => {
    try {
      saveDayState(node.dataDir, feed)
    } catch (err) {
      log(`hot feed: day state not saved: ${(err as Error).message}`, 'warn')
    }
  }
  let feed = seeded()
  const hub = new WsHub(feed, source, options.ws ?? WS_LIMITS_DEFAULT, { log, reads: node })
  const runtime: FeedRuntime = {
    get feed() {
      return feed
    },
    hub,
    setHistoryStatus: (read) => {
      extras.historyStatus = read
    },
    setMarketStats: (read) => {
      extras.marketStats = read
    },
    followHistory: (index) => {
      const status = (p: PipelineProgress): HistoryStatus => {
        const tip = node.tipHeight
        const watermark = p.watermarks.ingest > 0 ? p.watermarks.ingest : null
        return { watermark, block_count: p.blockCount, node_tip: tip, behind: watermark === null ? tip + 1 : tip - watermark }
      }
      extras.historyStatus = () => status(index.progress)
      hub.followIngest(index.progress.watermarks.ingest)
      index.onProgress((p) => hub.ingested(p.watermarks.ingest, status(p)))
    },
  }
  // A block's post replies leave in one write per connection per chunk of the block's replies
  // (ChainNode.onReplies), before the block's pushes.
  node.onReplies({ start: () => hub.startBatches(), end: () => hub.endBatches() })
  node.onBlock((committed) => {
    try {
      const delta = feed.applyBlock(committed.stored, committed.bodies, hub.accountInterest)
      if (delta !== undefined) hub.onBlock(delta)
      if (committed.stored.header.height % DAY_STATE_SAVE_EVERY_BLOCKS === 0) save()
    } catch (err) {
      // A feed failure must not stop the chain: rebuild the feed from the chain and go on; the
      // pushes of this block are lost, which the seq numbers do not show, so log it loudly.
      log(`hot feed: block ${committed.stored.header.height} failed (${(err as Error).stack ?? err}); reseeding`, 'error')
      feed = seeded()
      hub.replaceFeed(feed)
    }
  })
  node.onStop(save)
  hub.start()
  runtimes.set(node, runtime)
  return runtime
}
