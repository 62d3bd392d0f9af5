// A restart re-seeds the hot feed per market from the stored chain (docs/websocket.md#design-decisions):
// a quiet market whose trades are older than a busy market's still shows them, and an external-peg
// market's latest quote goes on being pushed on external_quote every block, last_price and volume
// included, with its age growing from the quote's source time.
import { afterAll, expect, test } from 'bun:test'
import { placeOrder, submitOracleQuote } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { RpcClient } from '../../src/client/rpc-client.ts'
import { NODE_OPTIONS } from '../../src/config.ts'
import { DEV_QUOTER_INDEX } from '../../src/node/dev-genesis.ts'
import { accepted } from '../support/dev-node.ts'
import { DEV_KEYS, type NodeProcess, removeDir, startNode, tempDataDir } from '../support/node-process.ts'
import { until, WsProbe } from './ws-support.ts'

const NO_DEV_QUOTER = 'no-dev-quoter' in NODE_OPTIONS ? ['--no-dev-quoter'] : []
const dataDir = tempDataDir()
let node: NodeProcess | undefined

afterAll(async () => {
  await node?.stop()
  removeDir(dataDir)
})

async function start(): Promise<NodeProcess> {
  const n = await startNode({ dataDir, blockTimeMs: 40, extraArgs: NO_DEV_QUOTER })
  const rpc = new RpcClient(n.url)
  // Reads are refused while the node is still starting.
  for (const deadline = Date.now() + 60_000; ; await Bun.sleep(100)) {
    try {
      await rpc.query('getExchangeConfig')
      return n
    } catch (err) {
      if (Date.now() > deadline) throw err
    }
  }
}

const trades = async (url: string, symbol: string) =>
  ((await (await fetch(`${url}/api/v1/market/trades/${symbol}?limit=1000`)).json()) as { data: Record<string, unknown>[] }).data

test('after a restart: the quiet market keeps its older trades beside the busy one, and external_quote pushes the stored quote every block', async () => {
  node = await start()
  const alice = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[1] })
  const bob = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[2] })
  const quoter = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[DEV_QUOTER_INDEX] })
  const trade = async (market: number, price: string, qty: string) => {
    accepted(await alice.send(placeOrder({ market_id: market, side: 'Ask', price, qty, tif: 'Gtc', reduce_only: false })))
    accepted(await bob.send(placeOrder({ market_id: market, side: 'Bid', price, qty, tif: 'Ioc', reduce_only: false })))
  }
  // ETH trades first and little; BTC after it and more.
  await trade(2, '3500', '1')
  await trade(2, '3501', '0.5')
  for (let i = 0; i < 12; i++) await trade(1, String(65_000 + i), '0.01')
  const sourceTs = Date.now()
  accepted(
    await quoter.send(
      submitOracleQuote([
        {
          market_id: 4,
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
  const eth = await trades(node.url, 'ETH-USD')
  const btc = await trades(node.url, 'BTC-USD')
  expect(eth.map((t) => t.price)).toEqual(['3501', '3500'])
  expect(btc).toHaveLength(12)

  await node.stop()
  node = await start()
  expect(await trades(node.url, 'ETH-USD')).toEqual(eth)
  expect(await trades(node.url, 'BTC-USD')).toEqual(btc)

  const ws = await WsProbe.open(node.url)
  try {
    await ws.subscribe(['external_quote.XAU'])
    const quotes = await until(
      () => {
        const got = ws.ofTopic('external_quote.XAU')
        return got.length >= 3 ? got : undefined
      },
      30_000,
      'three external_quote frames after the restart',
    )
    expect(quotes.map((f) => f.height)).toEqual(quotes.map((_, i) => quotes[0]!.height + i))
    for (const f of quotes) {
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
    }
    expect(quotes.at(-1)!.age_ms).toBeGreaterThan(quotes[0]!.age_ms)
  } finally {
    ws.close()
  }
}, 120_000)
