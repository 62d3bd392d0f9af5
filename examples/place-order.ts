#!/usr/bin/env bun
/**
 * Places a resting limit order on a development node and reads it back two ways: from the chain
 * state over JSON-RPC (`getAccountOrders`) and from the hot-read order book
 * (`GET /api/v1/market/orderbook/{symbol}`). Then it prints the curl lines that show the same.
 *
 *   npm start                                   # in one terminal: the dev node on :8080
 *   npm run example                             # in another (or: npx bun examples/place-order.ts)
 *   npm run example -- http://127.0.0.1:18545   # another node address (or PERPD_URL=...)
 *
 * It signs with development account #1, whose key the node prints at start (`perpd --dev`); set
 * PERPD_PRIVATE_KEY to use another key. How the signature is made: docs/protocol.md.
 */
import { placeOrder } from '../src/client/actions.ts'
import { PerpdClient } from '../src/client/perpd-client.ts'
import { type ActionReply, RpcCallError } from '../src/client/rpc-client.ts'

/** Development account #1 (0x7099…79c8): a public Anvil/Hardhat test key, Trader on `--dev`. */
const DEV_ACCOUNT_1_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

const url = (process.argv[2] ?? process.env.PERPD_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '')
const privateKey = process.env.PERPD_PRIVATE_KEY ?? DEV_ACCOUNT_1_KEY
const symbol = process.env.PERPD_SYMBOL ?? 'BTC-USD'

/** The fields of getMarket this script reads. */
interface Market {
  market_id: number
  symbol: string
  lifecycle: string
  mark_price: string
  best_ask: string | null
}

/** One row of getAccountOrders. */
interface OpenOrder {
  order_id: number
  symbol: string
  side: string
  price: string
  qty: string
  remaining: string
  tif: string
  client_order_id: string | null
  placed_height: number
}

/** The hot-read book reply: the wrapper and its snapshot. */
interface BookReply {
  chain_height: number
  stale: boolean
  data: { symbol: string; bids: { price: string; qty: string }[]; asks: { price: string; qty: string }[] }
}

function fail(message: string): never {
  console.error(`error: ${message}`)
  process.exit(1)
}

const client = new PerpdClient({ url, privateKey })

// 1. The node and the market.
let network: string
try {
  network = await client.networkName()
} catch (err) {
  fail(`no perpd node answers at ${url} (${(err as Error).message}); start one with \`npm start\`, or pass its address`)
}
const market = (await client.rpc.query<Market>('getMarket', { symbol })).data
if (market.lifecycle !== 'Active') fail(`${market.symbol} is ${market.lifecycle}; pick an Active market with PERPD_SYMBOL`)

// A bid 10% under the mark (and under the best ask, if any) rests instead of trading.
let price = Math.floor(Number(market.mark_price) * 0.9)
if (market.best_ask !== null && price >= Number(market.best_ask)) price = Math.floor(Number(market.best_ask) * 0.9)
const order = {
  market_id: market.market_id,
  side: 'Bid' as const,
  price: String(price),
  qty: '0.01',
  tif: 'Gtc' as const,
  reduce_only: false,
  client_order_id: `example-${Date.now().toString(36)}`,
}

console.log(`node     ${url} (network ${network})`)
console.log(`signer   ${client.address}`)
console.log('')

// 2. Sign and send. The reply comes once the order's block is committed.
console.log(
  `PlaceOrder ${market.symbol} ${order.side} ${order.qty} @ ${order.price} ${order.tif}, client_order_id ${order.client_order_id}`,
)
let reply: ActionReply
try {
  reply = await client.send(placeOrder(order))
} catch (err) {
  if (err instanceof RpcCallError) fail(`refused at admission (no nonce used): ${err.message}`)
  throw err
}
if (reply.status !== 'accepted') fail(`kept-reject in block ${reply.height}: ${JSON.stringify(reply.reason)}`)
const accepted = reply.events.find((e) => e.sub_kind === 'OrderAccepted')
const orderId = accepted?.body.order_id as number | undefined
if (orderId === undefined) fail(`accepted, but no OrderAccepted event: ${JSON.stringify(reply)}`)
console.log(`  accepted: tx_hash ${reply.tx_hash}, block ${reply.height}, order_id ${orderId}`)
console.log('')

// 3. The order in the chain state (JSON-RPC read).
const open = (await client.rpc.query<OpenOrder[]>('getAccountOrders', { address: client.address, market_id: market.market_id })).data
const mine = open.find((o) => o.order_id === orderId)
if (mine === undefined) fail(`order ${orderId} is not among the open orders: ${JSON.stringify(open)}`)
console.log('getAccountOrders (POST /api/v1/query):')
console.log(
  `  order_id ${mine.order_id} ${mine.symbol} ${mine.side} price ${mine.price} qty ${mine.qty} remaining ${mine.remaining} ${mine.tif} client_order_id ${mine.client_order_id} placed_height ${mine.placed_height}`,
)
console.log('')

// 4. The order's price level in the hot-read book (memory only; it follows committed blocks).
const bookPath = `/api/v1/market/orderbook/${encodeURIComponent(market.symbol)}`
let book: BookReply | undefined
let level: { price: string; qty: string } | undefined
for (const deadline = Date.now() + 10_000; Date.now() < deadline; await Bun.sleep(200)) {
  const res = await fetch(url + bookPath)
  if (res.status === 503) continue // the feed is still seeding (Retry-After)
  if (!res.ok) fail(`GET ${bookPath}: HTTP ${res.status} ${await res.text()}`)
  book = (await res.json()) as BookReply
  level = book.data.bids.find((l) => l.price === mine.price)
  if (level !== undefined) break
}
if (book === undefined || level === undefined) fail(`the bid level ${mine.price} did not show in ${bookPath}`)
console.log(`order book (GET ${bookPath}), chain_height ${book.chain_height}:`)
console.log(`  bids: ${book.data.bids.map((l) => `${l.qty} @ ${l.price}`).join(', ') || '(none)'}`)
console.log(`  asks: ${book.data.asks.map((l) => `${l.qty} @ ${l.price}`).join(', ') || '(none)'}`)
console.log(`  our level: bid ${level.qty} @ ${level.price}`)
console.log('')

// 5. The same by hand.
const rpcBody = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'getAccountOrders',
  params: { address: client.address, symbol: market.symbol },
})
console.log('The same by hand:')
console.log(`  curl -s -X POST ${url}/api/v1/query -H 'content-type: application/json' -d '${rpcBody}'`)
console.log(`  curl -s ${url}${bookPath}`)
console.log(`  curl -s ${url}/api/v1/tx/${reply.tx_hash}`)
