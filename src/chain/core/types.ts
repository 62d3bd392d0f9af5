// The chain's data model. Money is bigint in SCALE_6 units; prices are integer ticks of a market's
// price_decimals and sizes integer lots of its size_decimals (JS safe integers). No floats.
import type { OrderBook, Side } from '../book/book.ts'
import type { FundsState } from '../funds/funds-types.ts'
import type { OracleState, QuoteLimits } from '../markets/market-types.ts'
import type { AccountOrders } from '../orders/account-orders.ts'
import type { ClientIdIndex } from '../orders/client-ids.ts'
import type { Order, OrderIndexes, Tif } from '../orders/order-types.ts'
import type { StateHash } from '../state/state-hash.ts'
import type { TriggerOrder, TriggerState } from '../triggers/trigger-types.ts'
import type { Leaf } from './leaf.ts'

// Types of the data model that live with the area that owns them (so that they import nothing that
// imports this file), re-exported here with the rest of the model.
export type { Leaf, Order, Side, Tif }

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
