// Read methods a trading client or an operator needs beyond the market, history and feed reads: signers
// (nonces, agents, roles), single orders and triggers, positions, fees, pending withdrawals,
// insurance fund, blocks and chain information. Each reads the live chain state or the block store.
import { type Static, Type } from '@sinclair/typebox'
import { agentsOf, type ChainState, LIMITS, lowestUnusedNonce, type Order, ROLE_NAMES, ROLES, type RoleName } from '../../chain/index.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import { eventView, symbolLookup } from '../../node/views.ts'
import {
  AgentsResult,
  BlockEventsResult,
  BlocksResult,
  ChainInfoResult,
  FeeScheduleResult,
  InsuranceFundResult,
  NonceResult,
  OrderResult,
  PendingWithdrawalsResult,
  PositionResult,
  PositionsResult,
  RoleHoldersResult,
  RolesResult,
  TriggerResult,
} from '../../wire/results/state.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import { Address20, RoleSchema, U53 } from '../../wire/schema-types.ts'
import { openOrderView, positionView } from '../views/account-view.ts'
import { liveMarkets } from '../views/market-view.ts'
import { blockHeaderView, EXAMPLE_ADDRESS } from './chain-methods.ts'
import { withdrawalClaimView } from './funds-methods.ts'
import { marketFilter, marketRefFields, requireAddress, resolveMarket } from './params.ts'
import { MethodError, method } from './registry.ts'
import { triggerView } from './trigger-methods.ts'

const money = (v: bigint) => formatDecimal(v, 6)

/** Resting order by id; orders are indexed per account, so this walks the books (bounded by markets). */
function findOrder(state: ChainState, orderId: number): Order | undefined {
  for (const book of state.books.values()) {
    const o = book.get(orderId)
    if (o !== undefined) return o
  }
  return undefined
}

const MarketRef = marketRefFields({ symbol: 'symbol or base-asset prefix' })

/** Blocks per getBlocks page: default and maximum (the same as GET /api/v1/blocks). */
const BLOCKS_LIMIT_DEFAULT = 50
const BLOCKS_LIMIT_MAX = 200
/** Events per getBlockEvents page: default and maximum (the same as /blocks/{id}/events). */
const EVENTS_LIMIT_DEFAULT = 500
const EVENTS_LIMIT_MAX = 2000
/** Pending withdrawals per page of getPendingWithdrawals. */
const WITHDRAWALS_LIMIT_DEFAULT = 100
const WITHDRAWALS_LIMIT_MAX = 1000

export const stateMethods = [
  method({
    name: 'getNonce',
    description: 'Nonce window of a signer (account or agent): lowest unused nonce, window size and the used nonces above it.',
    params: Type.Object({ address: Address20() }, { additionalProperties: false }),
    example: { address: EXAMPLE_ADDRESS },
    result: NonceResult,
    handler: (ctx, p) => {
      const a = requireAddress(p.address)
      const w = ctx.node.state.nonces.get(a)
      return {
        data: {
          address: a,
          nonce: lowestUnusedNonce(ctx.node.state, a),
          window: LIMITS.nonceWindow,
          used_above: w === undefined ? [] : [...w.used].sort((x, y) => x - y),
        } satisfies Static<typeof NonceResult>,
      }
    },
  }),
  method({
    name: 'getAgents',
    description: 'Agents of a master account, or for an agent address the master it acts for and its role.',
    params: Type.Object({ address: Address20() }, { additionalProperties: false }),
    example: { address: EXAMPLE_ADDRESS },
    result: AgentsResult,
    handler: (ctx, p) => {
      const a = requireAddress(p.address)
      const self = ctx.node.state.agents.get(a)
      return {
        data: {
          address: a,
          agent_of: self === undefined ? null : { master: self.master, role: self.role, name: self.name },
          agents: agentsOf(ctx.node.state, a).map((g) => ({ address: g.agent, role: g.role, name: g.name })),
        } satisfies Static<typeof AgentsResult>,
      }
    },
  }),
  method({
    name: 'getRoleHolders',
    description: 'Accounts holding a role (Admin, Trader, Quoter, Liquidator, BridgeDeposit, BridgeWithdraw), by address; at most limit.',
    params: Type.Object(
      { role: RoleSchema, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'default 100' })) },
      { additionalProperties: false },
    ),
    example: { role: 'Admin' },
    result: RoleHoldersResult,
    handler: (ctx, p) => {
      const bit = ROLES[p.role as RoleName]
      const limit = p.limit ?? 100
      const out: string[] = []
      // Bounded by the account count; Trader is held by most accounts, so the limit matters there.
      for (const [addr, acct] of ctx.node.state.accounts) {
        if ((acct.roleMask & bit) === 0) continue
        out.push(addr)
        if (out.length >= limit) break
      }
      return { data: { role: p.role, accounts: out.sort(), truncated: out.length >= limit } satisfies Static<typeof RoleHoldersResult> }
    },
  }),
  method({
    name: 'getRoles',
    description: "Roles of an address (and its role_mask); an agent reports its master's roles it may use.",
    params: Type.Object({ address: Address20() }, { additionalProperties: false }),
    example: { address: EXAMPLE_ADDRESS },
    result: RolesResult,
    handler: (ctx, p) => {
      const a = requireAddress(p.address)
      const mask = ctx.node.state.accounts.get(a)?.roleMask ?? 0
      return {
        data: { address: a, role_mask: mask, roles: ROLE_NAMES.filter((r) => (mask & ROLES[r]) !== 0) } satisfies Static<
          typeof RolesResult
        >,
      }
    },
  }),
  method({
    name: 'getOrder',
    description: 'One resting order by order_id (closed orders: getOrderStatus).',
    params: Type.Object({ order_id: U53('the order') }, { additionalProperties: false }),
    example: { order_id: 1 },
    result: OrderResult,
    handler: (ctx, p) => {
      const o = findOrder(ctx.node.state, p.order_id)
      return {
        data: (o === undefined ? null : { ...openOrderView(ctx.node.state, o), owner: o.owner }) satisfies Static<typeof OrderResult>,
      }
    },
  }),
  method({
    name: 'getTrigger',
    description: 'One active trigger order by trigger_id.',
    params: Type.Object({ trigger_id: U53('the trigger') }, { additionalProperties: false }),
    example: { trigger_id: 1 },
    result: TriggerResult,
    handler: (ctx, p) => {
      const t = ctx.node.state.triggers.triggers.get(p.trigger_id)
      return { data: (t === undefined ? null : triggerView(ctx.node.state, t)) satisfies Static<typeof TriggerResult> }
    },
  }),
  method({
    name: 'getPositions',
    description: 'Open positions of an address with every position field of getAccount, by market_id.',
    params: Type.Object({ address: Address20() }, { additionalProperties: false }),
    example: { address: EXAMPLE_ADDRESS },
    result: PositionsResult,
    handler: (ctx, p) => {
      const state = ctx.node.state
      const acct = state.accounts.get(requireAddress(p.address))
      const positions =
        acct === undefined ? [] : [...acct.positions.values()].filter((x) => x.sizeLots !== 0).sort((x, y) => x.marketId - y.marketId)
      return { data: positions.map((pos) => positionView(state, acct!, pos)) }
    },
  }),
  method({
    name: 'getPosition',
    description: 'The position of an address in one market, or null when flat.',
    params: Type.Object({ address: Address20(), ...MarketRef }, { additionalProperties: false }),
    example: { address: EXAMPLE_ADDRESS, symbol: 'BTC-USD' },
    result: PositionResult,
    handler: (ctx, p) => {
      const state = ctx.node.state
      const m = resolveMarket(state, p)
      const acct = state.accounts.get(requireAddress(p.address))
      const pos = acct?.positions.get(m.marketId)
      return { data: acct === undefined || pos === undefined || pos.sizeLots === 0 ? null : positionView(state, acct, pos) }
    },
  }),
  method({
    name: 'getFeeSchedule',
    description: 'Maker and taker fees (bps) and fee recipient per market, with the global rebate ratio.',
    params: Type.Object({ ...MarketRef }, { additionalProperties: false }),
    example: { symbol: 'BTC-USD' },
    result: FeeScheduleResult,
    handler: (ctx, p) => {
      const state = ctx.node.state
      const named = marketFilter(state, p)
      const markets = named === undefined ? liveMarkets(state) : [named]
      return {
        data: {
          global_rebate_ratio_bps: state.params.globalRebateRatioBps,
          markets: markets.map((m) => ({
            market_id: m.marketId,
            symbol: m.symbol,
            maker_fee_bps: m.makerFeeBps,
            taker_fee_bps: m.takerFeeBps,
            fee_recipient: m.feeRecipient,
          })),
        } satisfies Static<typeof FeeScheduleResult>,
      }
    },
  }),
  method({
    name: 'getInsuranceFund',
    description: 'The insurance fund: its address and balance (it absorbs bad debt and receives liquidation penalties).',
    params: Type.Object({}, { additionalProperties: false }),
    result: InsuranceFundResult,
    handler: (ctx) => {
      const state = ctx.node.state
      const fund = state.params.insuranceFund
      return {
        data: { address: fund, balance: money(state.accounts.get(fund)?.balance ?? 0n) } satisfies Static<typeof InsuranceFundResult>,
      }
    },
  }),
  method({
    name: 'getPendingWithdrawals',
    paged: true,
    description: 'Every pending withdrawal, oldest first (for bridge operators); after_id pages on.',
    params: Type.Object(
      {
        after_id: Type.Optional(U53('return withdrawals with a larger id')),
        limit: Type.Optional(
          Type.Integer({ minimum: 1, maximum: WITHDRAWALS_LIMIT_MAX, description: `default ${WITHDRAWALS_LIMIT_DEFAULT}` }),
        ),
      },
      { additionalProperties: false },
    ),
    example: { limit: 100 },
    result: PendingWithdrawalsResult,
    handler: (ctx, p) => {
      const limit = p.limit ?? WITHDRAWALS_LIMIT_DEFAULT
      const after = p.after_id ?? 0
      const rows: Static<typeof PendingWithdrawalsResult> = []
      // The map is in id order (ids only grow), so the page is a bounded walk from the start.
      for (const w of ctx.node.state.funds.withdrawals.values()) {
        if (w.id <= after) continue
        rows.push({
          withdrawal_id: w.id,
          account: w.account,
          destination: w.destination,
          amount: money(w.amount),
          requested_height: w.requestedHeight,
          requested_at_ms: w.requestedAtMs,
          ...withdrawalClaimView(w),
        })
        if (rows.length > limit) break
      }
      const hasMore = rows.length > limit
      const page = rows.slice(0, limit)
      return {
        data: page,
        page: {
          offset: 0,
          limit,
          total: null,
          next_cursor: hasMore ? String(page[page.length - 1]!.withdrawal_id) : null,
          has_more: hasMore,
        },
      }
    },
  }),
  method({
    name: 'getBlocks',
    paged: true,
    description: 'Block headers from the block store, newest first (envelopes empty); before_height pages on.',
    params: Type.Object(
      {
        before_height: Type.Optional(U53('return blocks below this height')),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: BLOCKS_LIMIT_MAX, description: `default ${BLOCKS_LIMIT_DEFAULT}` })),
      },
      { additionalProperties: false },
    ),
    example: { limit: 10 },
    result: BlocksResult,
    handler: (ctx, p) => {
      const limit = p.limit ?? BLOCKS_LIMIT_DEFAULT
      const top = Math.min(ctx.node.state.height, (p.before_height ?? Number.MAX_SAFE_INTEGER) - 1)
      const from = Math.max(1, top - limit + 1)
      const headers = top < 1 ? [] : ctx.node.store.headers(from, top, limit).reverse()
      return {
        data: headers.map(blockHeaderView),
        page: { offset: 0, limit, total: null, next_cursor: from > 1 ? String(from) : null, has_more: from > 1 },
      }
    },
  }),
  method({
    name: 'getBlockEvents',
    paged: true,
    description: 'Events of one block in sequence order (EventView); offset/limit (default 500, max 2000).',
    params: Type.Object(
      {
        height: U53('block height'),
        offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: EVENTS_LIMIT_MAX })),
      },
      { additionalProperties: false },
    ),
    example: { height: 1 },
    result: BlockEventsResult,
    handler: (ctx, p) => {
      const header = ctx.node.store.header(p.height)
      if (header === undefined)
        throw new MethodError(RPC.invalidParams, `block ${p.height} not found (tip ${ctx.node.state.height})`, {
          field: 'params.height',
          reason: 'BlockNotFound',
        })
      const offset = p.offset ?? 0
      const limit = p.limit ?? EVENTS_LIMIT_DEFAULT
      const symbolOf = symbolLookup(ctx.node.state)
      const rows = ctx.node.store.eventsOf(p.height, offset, limit).map((e) => eventView(e, symbolOf))
      return {
        data: rows,
        page: { offset, limit, total: header.eventCount, next_cursor: null, has_more: offset + rows.length < header.eventCount },
      }
    },
  }),
  method({
    name: 'getChainInfo',
    description: "Network name, genesis digest, tip height and digest, and the node's parameters.",
    params: Type.Object({}, { additionalProperties: false }),
    result: ChainInfoResult,
    handler: (ctx) => {
      const s = ctx.node.state
      return {
        data: {
          network: s.params.network,
          genesis_digest: ctx.node.genesisDigest,
          height: s.height,
          tip_digest: s.lastDigest,
          timestamp_ms: s.timestampMs,
          action_version: s.params.actionVersion,
          max_tx_per_block: s.params.maxTxPerBlock,
          nonce_window: LIMITS.nonceWindow,
          market_count: s.markets.size,
          account_count: s.accounts.size,
        } satisfies Static<typeof ChainInfoResult>,
      }
    },
  }),
]
