// Test helpers of the hot feed: a TestChain whose committed blocks are turned into the stored form
// the node hands its listeners (events with decimal-string bodies) and applied to a HotFeed, with a
// check that the feed's books equal the chain's own books level for level.
import { expect } from 'bun:test'
import { nodeFeedSource } from '../../src/api/ws/node-feed-source.ts'
import { applyBlock, type BlockResult } from '../../src/chain/index.ts'
import { type AccountInterest, type BlockDelta, HotFeed } from '../../src/feed/hot-feed.ts'
import type { FeedBlock, FeedEnvelope } from '../../src/feed/types.ts'
import { fromUnits } from '../../src/feed/units.ts'
import { storedEvents } from '../../src/node/views.ts'
import { TestChain, type Tx } from './chain/test-chain.ts'

export class FeedHarness {
  readonly chain: TestChain
  readonly source: ReturnType<typeof nodeFeedSource>
  readonly feed: HotFeed
  readonly logs: string[] = []
  private wallMs = 1_000_000

  constructor(chain: TestChain = new TestChain()) {
    this.chain = chain
    this.source = nodeFeedSource(chain)
    this.feed = new HotFeed(this.source, { now: () => this.wallMs, log: (line) => this.logs.push(line) })
    this.feed.seed()
  }

  /** Moves the feed's wall clock (for staleness). */
  advanceWall(ms: number): void {
    this.wallMs += ms
  }

  /** Applies a block of transactions to the chain, then its stored form to the feed. */
  block(
    txs: readonly Tx[],
    opts: { timestampMs?: number; hide?: (subKind: string) => boolean; interest?: AccountInterest } = {},
  ): { result: BlockResult; delta: BlockDelta } {
    const { timestampMs } = opts
    const envelopes = txs.map((t) => this.chain.envelope(t))
    let result: BlockResult
    if (timestampMs === undefined) result = this.chain.applyEnvelopes(envelopes)
    else {
      // A block at a chosen time (for the UTC midnight rollover).
      result = applyBlock(this.chain.state, { height: this.chain.state.height + 1, timestampMs, envelopes })
    }
    const state = this.chain.state
    const height = state.height
    const feedEnvelopes: FeedEnvelope[] = envelopes.map((e, i) => ({
      height,
      envelopeIdx: i,
      txHash: e.txHash,
      signer: e.signer,
      nonce: e.nonce,
      actionKind: Object.keys(e.action)[0]!,
      marketId: result.envelopes[i]!.marketId,
      actionJson: JSON.stringify(e.action),
      status: result.envelopes[i]!.status,
      reasonJson: result.envelopes[i]!.reason === null ? null : JSON.stringify(result.envelopes[i]!.reason),
    }))
    // hide: events the feed does not get, as if their kind had no mapping (the drift canary's case).
    const events = storedEvents(state, height, result).filter((e) => opts.hide === undefined || !opts.hide(e.subKind))
    const block: FeedBlock = {
      header: {
        height,
        parent: '0x00',
        digest: `0x${height.toString(16).padStart(64, '0')}`,
        timestampMs: state.timestampMs,
        envelopeCount: envelopes.length,
        eventCount: events.length,
        stateRoot: `0x${'11'.repeat(32)}`,
      },
      envelopes: feedEnvelopes,
      events,
    }
    this.wallMs += 1_000
    const delta = this.feed.applyBlock(block, undefined, opts.interest)
    if (delta === undefined) throw new Error('the feed skipped a block')
    return { result, delta }
  }

  /** One transaction in a block of its own. */
  send(by: string, action: Record<string, unknown>): BlockDelta {
    return this.block([{ by, action }]).delta
  }

  /** The feed's books equal the chain's, every level of every market; no resync was needed. */
  expectBooksMatchChain(): void {
    const state = this.chain.state
    for (const [id, book] of state.books) {
      const market = state.markets.get(id)!
      const fm = this.feed.market(id)!
      for (const side of ['Bid', 'Ask'] as const) {
        const chain = book
          .levels(side, 1_000_000)
          .map((l) => [fromUnits(l.priceTicks, market.priceDecimals), fromUnits(l.lots, market.sizeDecimals)])
        const feed = fm.book
          .levels(side, 1_000_000)
          .map(([p, l]) => [fromUnits(p, market.priceDecimals), fromUnits(l, market.sizeDecimals)])
        expect(feed).toEqual(chain)
      }
      expect(fm.book.orderCount).toBe(book.size)
    }
    expect(this.logs.filter((l) => l.includes('drifted'))).toEqual([])
  }
}
