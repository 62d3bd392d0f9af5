// external_quote.{symbol} on a real node (docs/websocket.md#websocket-protocol): once an external-peg market has
// a quote, every block pushes the latest accepted quote with its age at that block, not only the
// blocks that carry a new quote.
import { expect, test } from 'bun:test'
import { submitOracleQuote } from '../../src/client/actions.ts'
import { NODE_OPTIONS } from '../../src/config.ts'
import { DEV_QUOTER_INDEX } from '../../src/node/dev-genesis.ts'
import { accepted, startDevNodeForFile } from '../support/dev-node.ts'
import { type Frame, until, WsProbe } from './ws-support.ts'

// This test sends the only quotes: the development quoter (when this node has one) stays off.
const NO_DEV_QUOTER = 'no-dev-quoter' in NODE_OPTIONS ? ['--no-dev-quoter'] : []
const { node, rpc, client } = await startDevNodeForFile({ blockTimeMs: 100, extraArgs: NO_DEV_QUOTER })
const quoter = client(DEV_QUOTER_INDEX)
const XAU = 4

/** Reads are refused while the node is still starting. */
async function waitUntilServing(): Promise<void> {
  for (const deadline = Date.now() + 60_000; ; await Bun.sleep(100)) {
    try {
      await rpc.query('getExchangeConfig')
      return
    } catch (err) {
      if (Date.now() > deadline) throw err
    }
  }
}

test('external_quote: one quote, then a push in every block with the same quote and a growing age_ms', async () => {
  await waitUntilServing()
  const ws = await WsProbe.open(node.url)
  try {
    await ws.subscribe(['external_quote.XAU-USD', 'block'])
    // No quote yet: blocks go by without external_quote frames.
    const quiet = ws.frames.length
    await ws.next((f) => f.topic === 'block', quiet, 10_000)
    await ws.next((f) => f.topic === 'block', ws.frames.length, 10_000)
    expect(ws.ofTopic('external_quote.XAU-USD', quiet)).toEqual([])

    const sourceTs = Date.now()
    const r = accepted(
      await quoter.send(
        submitOracleQuote([
          {
            market_id: XAU,
            bid_price: '2400.1',
            ask_price: '2400.5',
            mark_price: '2400.3',
            source_ts_ms: sourceTs,
            last_price: '2400.2',
            volume: '12.5',
          },
        ]),
      ),
    )
    const quotes = await until(
      () => {
        const got = ws.ofTopic('external_quote.XAU-USD').filter((f) => f.height >= r.height)
        return got.length >= 6 ? got : undefined
      },
      30_000,
      'six blocks of external_quote after the quote',
    )
    // One frame per block, from the quote's block on, each block in turn.
    expect(quotes.map((f) => f.height)).toEqual(quotes.map((_, i) => r.height + i))
    const blocks = new Map(ws.ofTopic('block').map((f) => [f.height, f.timestamp_ms]))
    for (const f of quotes) {
      expect(Object.keys(f)).toEqual(['seq', 'topic', 'symbol', 'height', 'timestamp_ms', 'quote', 'age_ms', 'market_stats'])
      expect(f.quote).toEqual({
        bid_price: '2400.1',
        ask_price: '2400.5',
        mark_price: '2400.3',
        source_ts_ms: sourceTs,
        quoter: quoter.address,
        last_price: '2400.2',
        volume: '12.5',
      })
      expect(f.age_ms).toBe(f.timestamp_ms - sourceTs)
      if (blocks.has(f.height)) expect(f.timestamp_ms).toBe(blocks.get(f.height))
      expect(f.market_stats.block_height).toBe(f.height)
    }
    // The age grows with the block time: never down, and up over the six blocks.
    const ages = quotes.map((f: Frame) => f.age_ms as number)
    for (let i = 1; i < ages.length; i++) expect(ages[i]!).toBeGreaterThanOrEqual(ages[i - 1]!)
    expect(ages.at(-1)!).toBeGreaterThan(ages[0]!)
  } finally {
    ws.close()
  }
}, 90_000)
