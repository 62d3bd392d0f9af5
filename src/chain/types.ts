// The chain's data model. Money is bigint in SCALE_6 units; prices are integer ticks of a market's
// price_decimals and sizes integer lots of its size_decimals (JS safe integers). No floats.
import type { BookOrder, OrderBook, Side } from './book.ts'
import type { StateHash } from './state-hash.ts'

export type { Side }
export type Tif = 'Gtc' | 'Ioc' | 'Fok' | 'PostOnly'
export type Routing = 'native' | 'external_peg'
export type Lifecycle = 'Created' | 'Active' | 'Halted' | 'DelistPending' | 'Delisted'
export type HaltReason = 'Admin' | 'QuoteStale' | null

/** SCALE_6: the fixed-point scale of balances, notionals, fees and PnL. */
export const SCALE_6 = 1_000_000n
export const BPS_DENOMINATOR = 10_000n

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
  feeRecipient: string
  routing: Routing
  /** Smallest order size in lots. */
  minOrderLots: number
  maxFillsPerQuote: number
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
  readonly origLots: number
  /** Lots of the remainder that open exposure and so hold margin (the rest reduces a position). */
  marginLots: number
  /** Margin reserved for marginLots at the order's price and leverage, SCALE_6. */
  marginHeld: bigint
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
}

export interface Account extends Leaf {
  readonly address: string
  balance: bigint
  roleMask: number
  positions: Map<number, Position>
  /** Resting orders by id. */
  orders: Map<number, Order>
  /** client_order_id -> order id, per market key `${marketId}:${cloid}`. */
  ordersByClientId: Map<string, number>
  /** Sum of marginHeld over resting orders. */
  reservedMargin: bigint
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
}

export interface ChainState {
  params: ExchangeParams
  accounts: Map<string, Account>
  agents: Map<string, AgentRecord>
  nonces: Map<string, NonceWindow>
  markets: Map<number, Market>
  books: Map<number, OrderBook<Order>>
  nextOrderId: number
  height: number
  timestampMs: number
  lastDigest: string
  /** Leaves changed since the last root, by key, as Leaf objects and as orders; see state-root.ts. */
  dirty: Set<string>
  dirtyLeaves: Leaf[]
  dirtyOrders: Order[]
  /** Number of roots committed so far: the sequence number of the block being applied. */
  rootSeq: number
  /** The leaf `x` of the exchange-wide fields (params and nextOrderId) as a Leaf to mark. */
  readonly exchangeLeaf: Leaf
  hash: StateHash
}
