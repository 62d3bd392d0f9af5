// The chain's data model. Money is bigint in SCALE_6 units; prices are integer ticks of a market's
// price_decimals and sizes integer lots of its size_decimals (JS safe integers). No floats.
import type { AccountOrders } from './account-orders.ts'
import type { BookOrder, OrderBook, Side } from './book.ts'
import type { ClientIdIndex } from './client-ids.ts'
import type { StateHash } from './state-hash.ts'
import type { FundsState } from './funds-state.ts'
import type { OracleState, QuoteLimits } from './market-types.ts'
import type { OrderIndexes } from './order-indexes.ts'
import type { TriggerOrder, TriggerState } from './trigger-types.ts'

export type { Side }
export type Tif = 'Gtc' | 'Ioc' | 'Fok' | 'PostOnly'
export type Routing = 'native' | 'external_peg'
export type Lifecycle = 'Created' | 'Active' | 'Halted' | 'DelistPending' | 'Delisted'
export type HaltReason = 'Admin' | 'QuoteStale' | null
/** How a position is margined: against the account's cross cash, or its own isolated margin. */
export type MarginMode = 'Cross' | 'Isolated'

/** SCALE_6: the fixed-point scale of balances, notionals, fees and PnL. */
export const SCALE_6 = 1_000_000n
export const BPS_DENOMINATOR = 10_000n
/** Liquidation penalty of a market that names none (capped at its maintenance margin). */
export const LIQUIDATION_PENALTY_BPS_DEFAULT = 50

/** Account roles, one bit each; `role_mask` on the wire. */
export const ROLES = {
  Admin: 1,
  Trader: 2,
  Quoter: 4,
  Liquidator: 8,
  BridgeDeposit: 16,
  BridgeWithdraw: 32,
} as const
export type RoleName = keyof typeof ROLES
export const ROLE_NAMES = Object.keys(ROLES) as RoleName[]

/** Limits of the state machine; every loop over a book or queue is bounded by one of these. */
export const LIMITS = {
  /** Nonces valid for a signer: [nonce, nonce + nonceWindow). */
  nonceWindow: 64,
  /** Fills one taker order may make before its remainder is cut (IOC) or rests (GTC). */
  fillsPerOrderMax: 1_000,
  /** Resting orders one account may keep across markets. */
  openOrdersPerAccountMax: 1_000,
  /** Agents one master may register. */
  agentsPerMasterMax: 16,
  /** Length limits of free-text fields. */
  clientOrderIdLengthMax: 64,
  agentNameLengthMax: 32,
  symbolLengthMax: 20,
  /** Decimals a market may use; price_decimals + size_decimals is at most maxDecimalsSum. */
  decimalsMax: 12,
  /** Highest leverage a market may offer. */
  leverageMax: 200,
  /** Pending withdrawal requests one account may keep. */
  pendingWithdrawalsPerAccountMax: 16,
  /** Inviters walked up from a new inviter to refuse a referral cycle (longer chains are refused). */
  inviterChainMax: 256,
  /** Length limits of bridge-supplied strings (deposit ids, chain names, external tx ids, reasons). */
  depositIdLengthMax: 128,
  bridgeTextLengthMax: 128,
} as const

/**
 * A state object with a state-root leaf of its own. The two fields are bookkeeping of the root
 * (state-root.ts), not state: they are not part of the leaf's value.
 */
export interface Leaf {
  /** The leaf key, built once when the object is created. */
  readonly leafKey: string
  /** ChainState.rootSeq of the block in which it was last marked dirty (-1: never). */
  dirtyIn: number
}

/** A market's immutable-by-default parameters (AmendMarketConfig changes some later). */
export interface MarketConfig {
  symbol: string
  priceDecimals: number
  sizeDecimals: number
  /** Fees in basis points of notional, paid to the fee recipient. */
  makerFeeBps: number
  takerFeeBps: number
  maxLeverage: number
  /** Maintenance margin as a fraction of notional, in bps; below it a position is liquidatable. */
  maintenanceMarginBps: number
  /** Penalty a liquidated position pays, bps of its notional at the mark (liquidation.ts). */
  liquidationPenaltyBps: number
  feeRecipient: string
  routing: Routing
  /** Smallest order size in lots. */
  minOrderLots: number
  maxFillsPerQuote: number
  /** Oracle quote validation and staleness limits (market-types.ts). */
  quoteLimits: QuoteLimits
}

export interface Market extends MarketConfig, Leaf {
  marketId: number
  lifecycle: Lifecycle
  emergencyHalt: boolean
  haltReason: HaltReason
  /** Mark price in ticks; 0 when unknown. */
  markTicks: number
  /** Price of the last fill in ticks; 0 before the first. */
  lastTradeTicks: number
  /** Sum of long position sizes, lots. */
  openInterestLots: number
  /** Block time of the RequestDelist that made it DelistPending; kept for audit only. */
  delistRequestedAtMs: number | null
  /** Latest oracle quote, its fill budget, reject streak, Book B PnL (market-types.ts). */
  oracle: OracleState
  /** 10^(priceDecimals + sizeDecimals - 6) as a divisor, or a multiplier when negative exponent. */
  notionalDivisor: bigint
  notionalMultiplier: bigint
  /** The same as numbers (at most 10^12, exact), for the safe-integer fast path of math.ts. */
  notionalDivisorNumber: number
  notionalMultiplierNumber: number
}

/** A resting or in-flight order. The book only reads id/owner/side/priceTicks/remainingLots. */
export interface Order extends BookOrder {
  readonly marketId: number
  readonly tif: Tif
  readonly reduceOnly: boolean
  readonly clientOrderId: string | undefined
  /**
   * Derived (not in the root): clientIdHash(marketId, clientOrderId), 0 without a client id. Taken
   * while the id's string is fresh at placement, so that the order leaves the client-id index
   * without hashing that string again (by then a cold cell and a cold character buffer).
   */
  readonly clientIdHash: number
  /** The order's quantity: as placed, lowered by an amend down or a reduce-only clamp. */
  origLots: number
  /** Block time after which the order expires (removed at the first block past it), or null. */
  readonly expiresAtMs: number | null
  /** Lots of the remainder that open exposure and so hold margin (the rest reduces a position). */
  marginLots: number
  /** Margin reserved for marginLots at the order's price and leverage, SCALE_6. */
  marginHeld: bigint
  /**
   * Derived (not in the root): marginHeld as an exact number, NaN when it is not a safe integer.
   * The reserved margin takes it in and out without reading the bigint, a cell elsewhere in memory
   * (cold by the time an old order is cancelled) whose every use is a runtime call.
   */
  marginHeldUnits: number
  readonly leverage: number
  readonly placedHeight: number
  /** The envelope that placed it (a trigger's own envelope when promoted from one), for Filled. */
  readonly sourceTxHash: string | null
  /** The trigger order it was promoted from, or null. */
  readonly sourceTriggerId: number | null
  /** Root bookkeeping (state-root.ts): its leaf key once its leaf is in the root, and the
   * ChainState.rootSeq of the block that last marked it dirty. */
  leafKey: string | undefined
  dirtyIn: number
}

export interface Position extends Leaf {
  readonly marketId: number
  /** Signed size in lots: long > 0, short < 0. */
  sizeLots: number
  /** Signed cost basis in SCALE_6: long > 0, short < 0. uPnL = size x mark - costBasis. */
  costBasis: bigint
  leverage: number
  realizedPnl: bigint
  /** Cross: margined by the account's cross cash; Isolated: by isolatedMargin alone. */
  marginMode: MarginMode
  /** SCALE_6 moved out of the cross balance into an Isolated position (always 0 for Cross). */
  isolatedMargin: bigint
}

export interface Account extends Leaf {
  readonly address: string
  balance: bigint
  roleMask: number
  positions: Map<number, Position>
  /** Resting orders by id. */
  orders: AccountOrders
  /** client_order_id -> order id per market (get(`${marketId}:${cloid}`) or getIn(marketId, cloid)). */
  ordersByClientId: ClientIdIndex
  /**
   * Sum of marginHeld over resting orders, in two parts (reserved-margin.ts: read it with
   * reservedMarginOf, change it with reserveMargin): a safe-integer number that takes the changes
   * while it can, and a bigint for the rest.
   */
  reservedMarginUnits: number
  reservedMarginOverflow: bigint
  /** Dead man's switch: at the first block past this time all resting orders are cancelled; null = off. */
  dmsDeadlineMs: number | null
  /** Derived (not in the root): resting reduce-only orders, so clamping skips accounts without any. */
  reduceOnlyCount: number
  /** Leverage and margin mode per market, kept while flat (margin.ts marginSettingOf). */
  settings: Map<number, MarginSetting>
}

/** An account's leverage and margin mode in one market: what its next position there opens with.
 * Its own state-root leaf `ms:<address>:<marketId>`. */
export interface MarginSetting extends Leaf {
  readonly marketId: number
  leverage: number
  marginMode: MarginMode
}

export interface AgentRecord {
  readonly agent: string
  readonly master: string
  readonly role: RoleName
  readonly name: string
}

/** Used nonces of one signer: everything below `floor` is used; `used` holds those above it. */
export interface NonceWindow extends Leaf {
  floor: number
  used: Set<number>
}

export interface ExchangeParams {
  network: string
  actionVersion: number
  maxTxPerBlock: number
  settlementPaused: boolean
  globalRebateRatioBps: number
  /** The account that takes over liquidated positions at the mark and absorbs bad debt. */
  insuranceFund: string
}

export interface ChainState {
  params: ExchangeParams
  accounts: Map<string, Account>
  agents: Map<string, AgentRecord>
  /** Derived index (not a leaf): agent addresses per master, in registration order. */
  agentsByMaster: Map<string, Set<string>>
  nonces: Map<string, NonceWindow>
  markets: Map<number, Market>
  books: Map<number, OrderBook<Order>>
  /** Index, not state (derived from the accounts' positions, so not in the root): the addresses
   * holding a position per market, in the order they opened it. Kept by positions.ts. */
  positionHolders: Map<number, Set<string>>
  /** Scratch of the block being applied, not state: accounts whose position in a market went flat
   * (address -> that market), for the end-of-block bad-debt sweep (bad-debt.ts), which clears it. */
  flatThisBlock: Map<string, number>
  nextOrderId: number
  height: number
  timestampMs: number
  lastDigest: string
  /** Leaves changed since the last root, by key, as Leaf objects and as orders; see state-root.ts. */
  dirty: Set<string>
  dirtyLeaves: Leaf[]
  dirtyOrders: Order[]
  dirtyTriggers: TriggerOrder[]
  /** Number of roots committed so far: the sequence number of the block being applied. */
  rootSeq: number
  /** The leaf `x` of the exchange-wide fields (params and nextOrderId) as a Leaf to mark. */
  readonly exchangeLeaf: Leaf
  hash: StateHash
  /** Withdrawals, deposits, referrals, frozen accounts, admin count (funds-state.ts). */
  funds: FundsState
  /** Derived indexes of the order area: expiry and dead man's switch queues, reduce-only orders. */
  orderIndexes: OrderIndexes
  /** Trigger orders and OCO pairs (trigger-types.ts); leaves `t:`, `oc:`, `tc`. */
  triggers: TriggerState
}
