// Typed action builders. Field order is the signed order, so builders fix it
// (docs/protocol.md#envelope). One naming style: camelCase builder names (the action kind's name,
// first letter lower case) taking the wire field names (snake_case, docs/actions.md) as input.
import type { ActivateMarketPayload, CancelOrderPayload, CreateMarketPayload, PlaceOrderPayload } from '../wire/actions.ts'

/**
 * Adds to `payload` the fields of `from` named in `keys` that are not undefined, in the order of
 * `keys` (the signed order: an absent optional field is left out, not sent as null).
 */
function withDefined<T extends object>(
  payload: Record<string, unknown>,
  from: T,
  keys: readonly (keyof T & string)[],
): Record<string, unknown> {
  for (const key of keys) if (from[key] !== undefined) payload[key] = from[key]
  return payload
}

/** The user-signed fields every user-signed kind carries around its own (docs/protocol.md#user-signed-actions). */
interface UserSigned {
  network: string
  nonce: number
  /** The EIP-712 domain chain id as a number (sent as hex); default 1337 (the dev network). */
  signature_chain_id?: number
}

/** A user-signed payload in signed order: network, the kind's own fields, nonce, signature_chain_id (hex). */
function userSignedPayload(p: UserSigned, fields: Record<string, unknown>): Record<string, unknown> {
  return { network: p.network, ...fields, nonce: p.nonce, signature_chain_id: `0x${(p.signature_chain_id ?? 1337).toString(16)}` }
}

export function placeOrder(p: PlaceOrderPayload) {
  return { PlaceOrder: placeOrderPayload(p) }
}

/** A PlaceOrder payload in signed field order (also the items of BatchPlaceOrder). */
function placeOrderPayload(p: PlaceOrderPayload): Record<string, unknown> {
  const payload = { market_id: p.market_id, side: p.side, price: p.price, qty: p.qty, tif: p.tif, reduce_only: p.reduce_only }
  return withDefined(payload, p, ['client_order_id', 'expires_at_ms'])
}

export function cancelOrder(p: CancelOrderPayload) {
  return { CancelOrder: withDefined({ market_id: p.market_id }, p, ['order_id', 'client_order_id']) }
}

/** RegisterAgent is user-signed: it carries network, nonce and the EIP-712 chain id (hex). */
export function registerAgent(p: UserSigned & { agent: string; role: string; name: string }) {
  return { RegisterAgent: userSignedPayload(p, { agent: p.agent.toLowerCase(), role: p.role, name: p.name }) }
}

export function createMarket(p: CreateMarketPayload) {
  return { CreateMarket: { ...p } }
}

export function activateMarket(p: ActivateMarketPayload) {
  return { ActivateMarket: { ...p } }
}

// Funds, agents and admin (area: funds, agents/admin). User-signed kinds take network and nonce
// (the envelope nonce), like registerAgent; amounts are decimal strings with at most 6 decimals.

export function setInviter(p: UserSigned & { inviter: string }) {
  return { SetInviter: userSignedPayload(p, { inviter: p.inviter.toLowerCase() }) }
}

export function withdrawRequest(p: UserSigned & { destination: string; amount: string }) {
  return { WithdrawRequest: userSignedPayload(p, { destination: p.destination.toLowerCase(), amount: p.amount }) }
}

export function cancelWithdrawRequest(p: UserSigned & { withdrawal_id: number }) {
  return { CancelWithdrawRequest: userSignedPayload(p, { withdrawal_id: p.withdrawal_id }) }
}

export function transferFunds(p: UserSigned & { destination: string; amount: string }) {
  return { TransferFunds: userSignedPayload(p, { destination: p.destination.toLowerCase(), amount: p.amount }) }
}

export function revokeAgent(p: UserSigned & { agent: string }) {
  return { RevokeAgent: userSignedPayload(p, { agent: p.agent.toLowerCase() }) }
}

export function creditDeposit(p: { account: string; amount: string; deposit_id: string; source_chain?: string | undefined }) {
  const payload: Record<string, unknown> = { account: p.account.toLowerCase(), amount: p.amount, deposit_id: p.deposit_id }
  if (p.source_chain !== undefined) payload.source_chain = p.source_chain
  return { CreditDeposit: payload }
}

/** ClaimWithdrawal (BridgeWithdraw): the bridge takes a pending withdrawal on; its owner can no longer cancel it. */
export function claimWithdrawal(p: { withdrawal_id: number }) {
  return { ClaimWithdrawal: { withdrawal_id: p.withdrawal_id } }
}

export function settleWithdrawal(p: { withdrawal_id: number; external_tx?: string | undefined }) {
  const payload: Record<string, unknown> = { withdrawal_id: p.withdrawal_id }
  if (p.external_tx !== undefined) payload.external_tx = p.external_tx
  return { SettleWithdrawal: payload }
}

export function refundWithdrawal(p: { withdrawal_id: number; reason?: string | undefined }) {
  const payload: Record<string, unknown> = { withdrawal_id: p.withdrawal_id }
  if (p.reason !== undefined) payload.reason = p.reason
  return { RefundWithdrawal: payload }
}

export function setGlobalRebateRatio(p: { ratio_bps: number }) {
  return { SetGlobalRebateRatio: { ratio_bps: p.ratio_bps } }
}

export function setSettlementPaused(p: { paused: boolean }) {
  return { SetSettlementPaused: { paused: p.paused } }
}

export function grantRole(p: { account: string; role: string }) {
  return { GrantRole: { account: p.account.toLowerCase(), role: p.role } }
}

export function revokeRole(p: { account: string; role: string }) {
  return { RevokeRole: { account: p.account.toLowerCase(), role: p.role } }
}

export function setInsuranceFund(p: { address: string }) {
  return { SetInsuranceFund: { address: p.address.toLowerCase() } }
}

export function amendExchangeConfig(p: { max_tx_per_block?: number | undefined }) {
  const payload: Record<string, unknown> = {}
  if (p.max_tx_per_block !== undefined) payload.max_tx_per_block = p.max_tx_per_block
  return { AmendExchangeConfig: payload }
}

export function setAccountFrozen(p: { account: string; frozen: boolean }) {
  return { SetAccountFrozen: { account: p.account.toLowerCase(), frozen: p.frozen } }
}

export function forceCancelAccountOrders(p: { account: string; market_id?: number | undefined }) {
  const payload: Record<string, unknown> = { account: p.account.toLowerCase() }
  if (p.market_id !== undefined) payload.market_id = p.market_id
  return { ForceCancelAccountOrders: payload }
}

// Trigger orders and OCO pairs (area: triggers). Optional fields are omitted when absent; an
// explicit expires_at_ms null (never expires) is kept, as it is hashed as nil.
import type {
  AmendTriggerOrderPayload,
  CancelOcoPairPayload,
  CancelTriggerOrderPayload,
  PlaceOcoPairPayload,
  PlaceTriggerOrderPayload,
} from '../wire/actions/triggers.ts'

export function placeTriggerOrder(p: PlaceTriggerOrderPayload) {
  const payload = withDefined(
    {
      market_id: p.market_id,
      side: p.side,
      qty: p.qty,
      trigger_price: p.trigger_price,
      trigger_direction: p.trigger_direction,
      order_type: p.order_type,
    },
    p,
    ['limit_price', 'tif'],
  )
  payload.reduce_only = p.reduce_only
  return { PlaceTriggerOrder: withDefined(payload, p, ['client_order_id', 'expires_at_ms']) }
}

export function amendTriggerOrder(p: AmendTriggerOrderPayload) {
  const payload = { market_id: p.market_id, trigger_id: p.trigger_id }
  return { AmendTriggerOrder: withDefined(payload, p, ['trigger_price', 'qty', 'limit_price', 'tif', 'expires_at_ms']) }
}

export function cancelTriggerOrder(p: CancelTriggerOrderPayload) {
  return { CancelTriggerOrder: withDefined({ market_id: p.market_id }, p, ['trigger_id', 'client_order_id']) }
}

export function placeOcoPair(p: PlaceOcoPairPayload) {
  const stop = withDefined(
    { trigger_price: p.stop.trigger_price, trigger_direction: p.stop.trigger_direction, order_type: p.stop.order_type },
    p.stop,
    ['limit_price', 'expires_at_ms'],
  )
  const payload = {
    market_id: p.market_id,
    side: p.side,
    qty: p.qty,
    limit_price: p.limit_price,
    stop,
    reduce_only: p.reduce_only,
    client_pair_id: p.client_pair_id,
  }
  return { PlaceOcoPair: withDefined(payload, p, ['parent_order_id']) }
}

export function cancelOcoPair(p: CancelOcoPairPayload) {
  return { CancelOcoPair: withDefined({ market_id: p.market_id }, p, ['pair_id', 'client_pair_id']) }
}

/** UpdateLeverage: the account's leverage in a market (also while flat). */
export function updateLeverage(p: import('../wire/actions/margin.ts').UpdateLeveragePayload) {
  return { UpdateLeverage: { market_id: p.market_id, leverage: p.leverage } }
}

/** UpdateMarginMode: Cross or Isolated, only while flat and without resting orders in the market. */
export function updateMarginMode(p: import('../wire/actions/margin.ts').UpdateMarginModePayload) {
  return { UpdateMarginMode: { market_id: p.market_id, mode: p.mode } }
}

/** UpdateIsolatedMargin: move SCALE_6 margin into (Add) or out of (Remove) an Isolated position. */
export function updateIsolatedMargin(p: import('../wire/actions/margin.ts').UpdateIsolatedMarginPayload) {
  return { UpdateIsolatedMargin: { market_id: p.market_id, amount: p.amount, direction: p.direction } }
}

/** LiquidatePosition (role Liquidator): close a liquidatable position at the mark against the insurance fund. */
export function liquidatePosition(p: import('../wire/actions/margin.ts').LiquidatePositionPayload) {
  return { LiquidatePosition: { address: p.address.toLowerCase(), market_id: p.market_id } }
}

// Markets area: lifecycle, configuration and oracle quotes. Optional fields are left out when absent.
type MarketRefInput = { market_id?: number | undefined; symbol?: string | undefined }

/** The market reference fields in signed order: market_id, then symbol. */
function marketRef(p: MarketRefInput): Record<string, unknown> {
  return withDefined({}, p, ['market_id', 'symbol'])
}

/** Copies the defined fields of p in key order, after the market reference. */
function withRef(p: MarketRefInput & Record<string, unknown>): Record<string, unknown> {
  const out = marketRef(p)
  for (const [k, v] of Object.entries(p)) if (k !== 'market_id' && k !== 'symbol' && v !== undefined) out[k] = v
  return out
}

/** CancelMarket (master-only): withdraw a Created market. */
export const cancelMarket = (p: MarketRefInput) => ({ CancelMarket: marketRef(p) })
/** HaltMarket: Active -> Halted (Admin). */
export const haltMarket = (p: MarketRefInput) => ({ HaltMarket: marketRef(p) })
/** ResumeMarket: Halted -> Active. */
export const resumeMarket = (p: MarketRefInput) => ({ ResumeMarket: marketRef(p) })
/** RequestDelist: -> DelistPending. */
export const requestDelist = (p: MarketRefInput) => ({ RequestDelist: marketRef(p) })
/** CompleteDelist: DelistPending -> Delisted (cancels orders, settles positions at the mark). */
export const completeDelist = (p: MarketRefInput) => ({ CompleteDelist: marketRef(p) })

/** SetFeeRecipient. */
export function setFeeRecipient(p: import('../wire/actions/markets.ts').SetFeeRecipientPayload) {
  return { SetFeeRecipient: { ...marketRef(p), fee_recipient: p.fee_recipient.toLowerCase() } }
}

/** SetEmergencyHalt. */
export function setEmergencyHalt(p: import('../wire/actions/markets.ts').SetEmergencyHaltPayload) {
  return { SetEmergencyHalt: { ...marketRef(p), halted: p.halted } }
}

/** AmendMarketConfig: only the given fields change. */
export function amendMarketConfig(p: import('../wire/actions/markets.ts').AmendMarketConfigPayload) {
  return { AmendMarketConfig: withRef(p) }
}

/** One quote of SubmitOracleQuote. */
export type OracleQuoteInput = import('../wire/actions/markets.ts').OracleQuoteItem

/** SubmitOracleQuote (role Quoter): quotes of one or more markets, at most QUOTES_PER_BATCH_MAX. */
export function submitOracleQuote(quotes: readonly OracleQuoteInput[]) {
  const items = quotes.map((q) => {
    const item = marketRef(q)
    item.bid_price = q.bid_price
    item.ask_price = q.ask_price
    item.mark_price = q.mark_price
    item.source_ts_ms = q.source_ts_ms
    return withDefined(item, q, ['last_price', 'volume'])
  })
  return { SubmitOracleQuote: { quotes: items } }
}

// Orders area: batches, amends, mass cancels, the dead man's switch and Noop. Optional fields are
// left out when absent (a ScheduleCancel's null deadline is kept: it clears the switch).
import type { MassCancelPayload, ModifyPayload } from '../wire/actions/orders.ts'

/** BatchPlaceOrder: up to 50 orders, applied in order; rejected items come back as BatchItemRejected events. */
export function batchPlaceOrder(orders: readonly PlaceOrderPayload[]) {
  return { BatchPlaceOrder: { orders: orders.map(placeOrderPayload) } }
}

/** One amend of BatchModify: the order by order_id or client_order_id, and any of price, qty (new total) and tif. */
export type ModifyInput = ModifyPayload

/** BatchModify: up to 50 amends of resting orders, applied in order. */
export function batchModify(modifies: readonly ModifyInput[]) {
  return {
    BatchModify: {
      modifies: modifies.map((m) => withDefined({ market_id: m.market_id }, m, ['order_id', 'client_order_id', 'price', 'qty', 'tif'])),
    },
  }
}

/** MassCancel by Owner (optionally one market), Side (market_id and side) or Ids (order_ids). */
export function massCancel(p: MassCancelPayload) {
  const payload: Record<string, unknown> = {}
  if (p.market_id !== undefined) payload.market_id = p.market_id
  payload.by = p.by
  if (p.side !== undefined) payload.side = p.side
  if (p.order_ids !== undefined) payload.order_ids = [...p.order_ids]
  return { MassCancel: payload }
}

/** ScheduleCancel: the dead man's switch at deadline_ms (5 s to 24 h after block time), or null to clear it. */
export function scheduleCancel(deadline_ms: number | null) {
  return { ScheduleCancel: { deadline_ms } }
}

/** Noop: consumes a nonce and does nothing (invalidates an action signed with that nonce). */
export function noop() {
  return { Noop: {} }
}
