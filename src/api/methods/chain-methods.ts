// Read methods over the live chain state and the block store (foundation set).
import { type Static, Type } from '@sinclair/typebox'
import { notionalOf } from '../../chain/index.ts'
import { ReadError } from '../../indexer/paging.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import type { StoredBlockHeader, StoredEnvelope } from '../../node/block-store.ts'
import { DEV_ADDRESSES } from '../../node/dev-genesis.ts'
import { envelopeView, eventView, symbolLookup } from '../../node/views.ts'
import { ACTION_KINDS } from '../../wire/actions.ts'
import {
  AccountOrdersResult,
  AccountResult,
  ActionsMetaResult,
  BlockResult,
  ExchangeConfigResult,
  ExchangeStatsResult,
  HealthResult,
  OrderbookResult,
  TxResult,
} from '../../wire/results/chain.ts'
import type { BlockHeaderSchema } from '../../wire/results/shared-block.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import { Address20, Hex32, U53 } from '../../wire/schema-types.ts'
import { historyOf } from '../history-link.ts'
import { accountView, openOrderView } from '../views/account-view.ts'
import { liveMarkets, marketListItem } from '../views/market-view.ts'
import { ORDERBOOK_DEPTH_DEFAULT, ORDERBOOK_DEPTH_MAX, orderbookView } from '../views/orderbook-view.ts'
import { marketFilter, marketRefFields, requireAddress, requireMarket } from './params.ts'
import { MethodError, method, type QueryContext } from './registry.ts'

/**
 * Blocks getTx reads envelope by envelope for a hash the history index has not reached (the block
 * store has no index on tx hashes, block-store.ts): the blocks the index is behind, at most this
 * many, on the block thread (50 blocks of 2,000 envelopes: about 20 ms).
 */
export const TX_SCAN_BLOCKS_MAX = 50

const NoParams = Type.Object({}, { additionalProperties: false })

/** Development account #1, funded on the dev network: the address of the read methods' examples. */
export const EXAMPLE_ADDRESS = DEV_ADDRESSES[1]

export function blockHeaderView(h: StoredBlockHeader): Static<typeof BlockHeaderSchema> {
  return {
    parent: h.parent,
    height: h.height,
    timestamp_ms: h.timestampMs,
    digest: h.digest,
    envelope_count: h.envelopeCount,
    event_count: h.eventCount,
    state_root: h.stateRoot,
    envelopes: [],
  }
}

export const chainMethods = [
  method({
    name: 'getHealth',
    description:
      'Liveness of the node: {status: "ok", height}. Not a probe: while the node recovers or is halted, /api/v1/query answers 503 (RECOVERING, HALTED) before any method runs; the probes are GET /api/v1/health and /api/v1/health/live (docs/operations.md#health).',
    params: NoParams,
    result: HealthResult,
    handler: (ctx) => ({ data: { status: 'ok', height: ctx.node.state.height } satisfies Static<typeof HealthResult> }),
  }),
  method({
    name: 'getExchangeConfig',
    cachePerBlock: true,
    description:
      'Exchange-wide parameters: the network, action_version, max_decimals, max_tx_per_block, the settlement and rebate settings, the market count.',
    params: NoParams,
    result: ExchangeConfigResult,
    handler: (ctx) => {
      const s = ctx.node.state
      let active = 0
      for (const m of s.markets.values()) if (m.lifecycle === 'Active') active++
      return {
        data: {
          network: s.params.network,
          action_version: s.params.actionVersion,
          max_decimals: 6,
          max_tx_per_block: s.params.maxTxPerBlock,
          settlement_paused: s.params.settlementPaused,
          global_rebate_ratio_bps: s.params.globalRebateRatioBps,
          market_count: active,
          nonce_window: 64,
        } satisfies Static<typeof ExchangeConfigResult>,
      }
    },
  }),
  method({
    name: 'getExchangeStats',
    cachePerBlock: true,
    description: 'Exchange-wide figures: markets, accounts, open orders and open interest (GET /api/v1/stats).',
    params: NoParams,
    result: ExchangeStatsResult,
    handler: (ctx) => {
      const s = ctx.node.state
      const markets = liveMarkets(s)
      let openOrders = 0
      let oiNotional = 0n
      const rows = markets.map((m) => {
        const item = marketListItem(m)
        const orders = s.books.get(m.marketId)?.size ?? 0
        openOrders += orders
        oiNotional += notionalOf(m, m.markTicks, m.openInterestLots)
        return {
          market_id: m.marketId,
          symbol: m.symbol,
          lifecycle: m.lifecycle,
          mark_price: item.mark_price,
          open_interest: item.open_interest,
          open_interest_notional: item.open_interest_notional,
          open_orders: orders,
        }
      })
      return {
        data: {
          market_count: rows.length,
          account_count: s.accounts.size,
          open_orders: openOrders,
          total_open_interest_notional: formatDecimal(oiNotional, 6),
          markets: rows,
        } satisfies Static<typeof ExchangeStatsResult>,
      }
    },
  }),
  method({
    name: 'getActionsMeta',
    cachePerBlock: true,
    description: 'Every action kind with its auth channel, role and master_only.',
    params: NoParams,
    result: ActionsMetaResult,
    handler: (ctx) => ({
      data: {
        action_version: ctx.node.state.params.actionVersion,
        actions: ACTION_KINDS.map((k) => ({
          name: k.name,
          auth: k.auth,
          role: k.role,
          master_only: k.masterOnly,
          description: k.description,
        })),
      } satisfies Static<typeof ActionsMetaResult>,
    }),
  }),
  // getMarkets, getMarket, getMarketById: market-methods.ts.
  method({
    name: 'getOrderbook',
    cachePerBlock: true,
    description: 'Aggregated book levels of a market; depth per side (default 50, max 500).',
    params: Type.Object(
      {
        ...marketRefFields(),
        depth: Type.Optional(Type.Integer({ minimum: 0, description: 'levels per side; 0 = default; clamped to 500' })),
      },
      { additionalProperties: false },
    ),
    result: OrderbookResult,
    example: { symbol: 'BTC-USD', depth: 10 },
    handler: (ctx, p) => {
      const m = requireMarket(ctx.node.state, p)
      const depth = p.depth === undefined || p.depth === 0 ? ORDERBOOK_DEPTH_DEFAULT : Math.min(p.depth, ORDERBOOK_DEPTH_MAX)
      return { data: orderbookView(m, ctx.node.state.books.get(m.marketId)!, depth, ctx.node.state.height) }
    },
  }),
  method({
    name: 'getAccount',
    cachePerBlock: true,
    description: 'Balance, nonce, roles, margin aggregates, positions and agents of an address.',
    params: Type.Object({ address: Address20() }, { additionalProperties: false }),
    result: AccountResult,
    example: { address: EXAMPLE_ADDRESS },
    handler: (ctx, p) => ({ data: accountView(ctx.node.state, requireAddress(p.address)) }),
  }),
  method({
    name: 'getAccountOrders',
    cachePerBlock: true,
    description: 'Open orders of an address, optionally of one market, in order id order.',
    params: Type.Object({ address: Address20(), ...marketRefFields() }, { additionalProperties: false }),
    result: AccountOrdersResult,
    example: { address: EXAMPLE_ADDRESS, symbol: 'BTC-USD' },
    handler: (ctx, p) => {
      const state = ctx.node.state
      const account = state.accounts.get(requireAddress(p.address))
      const market = marketFilter(state, p)
      const orders =
        account === undefined ? [] : [...account.orders.values()].filter((o) => market === undefined || o.marketId === market.marketId)
      return { data: orders.sort((a, b) => a.id - b.id).map((o) => openOrderView(state, o)) }
    },
  }),
  method({
    name: 'getTx',
    description: `A transaction by tx_hash: its envelope with status, reason and events. Looked up through the history index, and in the newest ${TX_SCAN_BLOCKS_MAX} blocks of the block store when that index has not reached them; when neither can tell (no history index, one more than ${TX_SCAN_BLOCKS_MAX} blocks behind, or one whose reads fail), error -32603 with data.reason HISTORY_UNAVAILABLE: retry, it is not a "not found".`,
    params: Type.Object({ tx_hash: Hex32('the transaction hash') }, { additionalProperties: false }),
    result: TxResult,
    example: { tx_hash: `0x${'00'.repeat(32)}` },
    handler: async (ctx, p) => {
      const store = ctx.node.store
      const env = await envelopeByTxHash(ctx, p.tx_hash.toLowerCase())
      if (env === undefined) return { data: null }
      const symbolOf = symbolLookup(ctx.node.state)
      const header = store.header(env.height)!
      return {
        data: {
          ...envelopeView(env, symbolOf),
          timestamp_ms: header.timestampMs,
          events: store.eventsOfEnvelope(env.height, env.envelopeIdx).map((e) => eventView(e, symbolOf)),
        },
      }
    },
  }),
  method({
    name: 'getBlock',
    description: 'A block header with its envelopes, by height (or the tip without one).',
    params: Type.Object({ height: Type.Optional(U53('block height; default the tip')) }, { additionalProperties: false }),
    result: BlockResult,
    example: { height: 1 },
    handler: (ctx, p) => {
      const store = ctx.node.store
      const height = p.height ?? ctx.node.state.height
      const header = store.header(height)
      if (header === undefined)
        throw new MethodError(RPC.invalidParams, `block ${height} not found (tip ${ctx.node.state.height})`, {
          field: 'params.height',
          reason: 'BlockNotFound',
        })
      const symbolOf = symbolLookup(ctx.node.state)
      return { data: { ...blockHeaderView(header), envelopes: store.envelopesOf(height).map((e) => envelopeView(e, symbolOf)) } }
    },
  }),
]

/**
 * The stored envelope with this tx hash: through the history index's tx-hash index for the blocks it
 * has ingested, and by a scan of the newer blocks of the block store (an action's own block is
 * usually one of these when its sender asks right after the reply). The scan runs on the block
 * thread, so it reads at most TX_SCAN_BLOCKS_MAX blocks, and when the history read fails (the
 * index is down or its reader is busy) only the blocks above what the index had reached. When the
 * two together cannot cover the chain, "not found" could be wrong: the answer is an error to
 * retry, not null.
 */
async function envelopeByTxHash(ctx: QueryContext, txHash: string): Promise<StoredEnvelope | undefined> {
  const store = ctx.node.store
  /** Blocks at or below it were searched through the history index. */
  let searchedTo = 0
  /** Blocks at or below it are the history index's to search (the scan leaves them). */
  let indexedTo = 0
  let historyProblem: string | undefined
  const history = historyOf(ctx.node)
  if (history === undefined) historyProblem = 'the history index is not running'
  else {
    try {
      const { value, watermarks } = await history.read('txLocation', { hash: txHash })
      if (value !== null) {
        const found = store.envelopeAt(value.height, value.envelope_idx)
        if (found !== undefined) return found
      }
      searchedTo = indexedTo = watermarks.ingest
    } catch (err) {
      if (!(err instanceof ReadError)) throw err
      historyProblem = err.message
      indexedTo = history.progress.watermarks.ingest
    }
  }
  const tip = ctx.node.state.height
  const scanFrom = Math.max(indexedTo, tip - TX_SCAN_BLOCKS_MAX)
  const found = store.envelopeInBlocksAfter(txHash, scanFrom)
  if (found !== undefined || scanFrom <= searchedTo) return found
  throw new MethodError(
    RPC.internalError,
    `the transaction is not in blocks ${scanFrom + 1} to ${tip}, and the history index cannot look in the others (${historyProblem ?? `it has reached block ${indexedTo}`}); retry shortly`,
    { reason: 'HISTORY_UNAVAILABLE' },
  )
}
