// `perpd --dev` runs a development quoter for its external-peg market (XAU-USD): quotes signed by
// the dev Quoter key (development account #7) reach blocks through /action's admission, so the
// market is Active and trades; `--no-dev-quoter` leaves it Halted (QuoteStale).
import { afterAll, describe, expect, test } from 'bun:test'
import { placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { CheckedRpcClient } from '../support/checked-rpc.ts'
import { acceptedEvents } from '../support/dev-node.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode } from '../support/node-process.ts'
import { until } from '../support/poll.ts'

const DEV_QUOTER = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955'
const BOOK_B = '0x00000000000000000000000000000000000000bb'

const nodes: NodeProcess[] = []
afterAll(async () => {
  for (const n of nodes) {
    await n.stop()
    removeDir(n.dataDir)
  }
})

async function start(devQuoter: boolean) {
  const node = await startNode({ devQuoter, blockTimeMs: 100 })
  nodes.push(node)
  return { node, rpc: new CheckedRpcClient(node.url) }
}

interface MarketDetail {
  lifecycle: string
  halt_reason: string | null
  latest_quote: { mark_price: string; source_ts_ms: number } | null
}

describe('the development quoter', () => {
  test('keeps XAU-USD Active with quotes of the dev Quoter key, and it trades against Book B', async () => {
    const { node, rpc } = await start(true)
    const xau = () => rpc.query<MarketDetail>('getMarket', { symbol: 'XAU-USD' }).then((r) => r.data)
    await until('XAU-USD Active on a quote', xau, (m) => m.lifecycle === 'Active' && m.latest_quote !== null, 30_000)

    // The quotes are ordinary envelopes signed by the Quoter, in the chain's blocks.
    const quotes = await until(
      'SubmitOracleQuote envelopes in the history index',
      async () => {
        const res = await fetch(`${node.url}/api/v1/envelopes?action_kind=SubmitOracleQuote`)
        return res.status === 200 ? ((await res.json()) as { data: { signer: string; status: string }[] }).data : []
      },
      (d) => d.length > 0,
      30_000,
    )
    expect(quotes.every((e) => e.signer === DEV_QUOTER && e.status === 'accepted')).toBe(true)

    // It stays Active for longer than max_quote_lag_ms (10 s in the dev genesis), the quote moving.
    const seenMarks = new Set<string>()
    const until12s = Date.now() + 12_000
    while (Date.now() < until12s) {
      const m = await xau()
      expect({ lifecycle: m.lifecycle, halt_reason: m.halt_reason }).toEqual({ lifecycle: 'Active', halt_reason: null })
      seenMarks.add(m.latest_quote!.mark_price)
      await Bun.sleep(500)
    }
    expect(seenMarks.size).toBeGreaterThan(1)

    const alice = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
    const buy = acceptedEvents(
      await alice.send(placeOrder({ market_id: 4, side: 'Bid', price: '3000', qty: '0.5', tif: 'Ioc', reduce_only: false })),
    )
    expect(buy.map((e) => e.sub_kind)).toEqual(['OrderAccepted', 'Filled', 'OrderDone'])
    expect(buy[1]!.body).toMatchObject({ maker: BOOK_B, qty: '0.5' })
  }, 120_000)

  test('with --no-dev-quoter XAU-USD stays Halted (QuoteStale)', async () => {
    const { rpc } = await start(false)
    await until(
      'a few blocks',
      () => rpc.query('getHealth').then((r) => r.height),
      (h) => h >= 10,
      30_000,
    )
    const m = (await rpc.query<MarketDetail>('getMarket', { symbol: 'XAU-USD' })).data
    expect({ lifecycle: m.lifecycle, halt_reason: m.halt_reason, latest_quote: m.latest_quote }).toEqual({
      lifecycle: 'Halted',
      halt_reason: 'QuoteStale',
      latest_quote: null,
    })
  }, 120_000)
})
