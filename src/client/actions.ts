// Typed action builders. Field order is the signed order, so builders fix it (PROTOCOL §3).
import type { ActivateMarketPayload, CancelOrderPayload, CreateMarketPayload, PlaceOrderPayload } from '../wire/actions.ts'

export function placeOrder(p: PlaceOrderPayload) {
  return { PlaceOrder: placeOrderPayload(p) }
}

/** A PlaceOrder payload in signed field order (also the items of BatchPlaceOrder). */
function placeOrderPayload(p: PlaceOrderPayload): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    market_id: p.market_id, side: p.side, price: p.price, qty: p.qty, tif: p.tif, reduce_only: p.reduce_only,
  }
  if (p.client_order_id !== undefined) payload.client_order_id = p.client_order_id
  if (p.expires_at_ms !== undefined) payload.expires_at_ms = p.expires_at_ms
  return payload
}

export function cancelOrder(p: CancelOrderPayload) {
  const payload: Record<string, unknown> = { market_id: p.market_id }
  if (p.order_id !== undefined) payload.order_id = p.order_id
  if (p.client_order_id !== undefined) payload.client_order_id = p.client_order_id
  return { CancelOrder: payload }
}

/** RegisterAgent is user-signed: it carries network, nonce and the EIP-712 chain id (hex). */
export function registerAgent(p: { network: string; agent: string; role: string; name: string; nonce: number; signatureChainId?: number }) {
  return {
    RegisterAgent: {
      network: p.network, agent: p.agent.toLowerCase(), role: p.role, name: p.name, nonce: p.nonce,
      signature_chain_id: `0x${(p.signatureChainId ?? 1337).toString(16)}`,
    },
  }
}

export function createMarket(p: CreateMarketPayload) {
  return { CreateMarket: { ...p } }
}

export function activateMarket(p: ActivateMarketPayload) {
  return { ActivateMarket: { ...p } }
}

// Funds, agents and admin (area: funds, agents/admin). User-signed kinds take network and nonce
// (the envelope nonce), like registerAgent; amounts are decimal strings with at most 6 decimals.

/** The user-signed fields every user-signed kind carries around its own (PROTOCOL §4.2). */
interface UserSigned {
  network: string
  nonce: number
  signatureChainId?: number
}
const chainIdHex = (id: number | undefined) => `0x${(id ?? 1337).toString(16)}`

export function setInviter(p: UserSigned & { inviter: string }) {
  return { SetInviter: { network: p.network, inviter: p.inviter.toLowerCase(), nonce: p.nonce, signature_chain_id: chainIdHex(p.signatureChainId) } }
}

export function withdrawRequest(p: UserSigned & { destination: string; amount: string }) {
  return { WithdrawRequest: { network: p.network, destination: p.destination.toLowerCase(), amount: p.amount, nonce: p.nonce, signature_chain_id: chainIdHex(p.signatureChainId) } }
}

export function cancelWithdrawRequest(p: UserSigned & { withdrawalId: number }) {
  return { CancelWithdrawRequest: { network: p.network, withdrawal_id: p.withdrawalId, nonce: p.nonce, signature_chain_id: chainIdHex(p.signatureChainId) } }
}

export function transferFunds(p: UserSigned & { destination: string; amount: string }) {
  return { TransferFunds: { network: p.network, destination: p.destination.toLowerCase(), amount: p.amount, nonce: p.nonce, signature_chain_id: chainIdHex(p.signatureChainId) } }
}

export function revokeAgent(p: UserSigned & { agent: string }) {
  return { RevokeAgent: { network: p.network, agent: p.agent.toLowerCase(), nonce: p.nonce, signature_chain_id: chainIdHex(p.signatureChainId) } }
}

export function creditDeposit(p: { account: string; amount: string; depositId: string; sourceChain?: string }) {
  const payload: Record<string, unknown> = { account: p.account.toLowerCase(), amount: p.amount, deposit_id: p.depositId }
  if (p.sourceChain !== undefined) payload.source_chain = p.sourceChain
  return { CreditDeposit: payload }
}

export function settleWithdrawal(p: { withdrawalId: number; externalTx?: string }) {
  const payload: Record<string, unknown> = { withdrawal_id: p.withdrawalId }
  if (p.externalTx !== undefined) payload.external_tx = p.externalTx
  return { SettleWithdrawal: payload }
}

export function refundWithdrawal(p: { withdrawalId: number; reason?: string }) {
  const payload: Record<string, unknown> = { withdrawal_id: p.withdrawalId }
  if (p.reason !== undefined) payload.reason = p.reason
  return { RefundWithdrawal: payload }
}

export function setGlobalRebateRatio(p: { ratioBps: number }) {
  return { SetGlobalRebateRatio: { ratio_bps: p.ratioBps } }
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

export function amendExchangeConfig(p: { maxTxPerBlock?: number }) {
  const payload: Record<string, unknown> = {}
  if (p.maxTxPerBlock !== undefined) payload.max_tx_per_block = p.maxTxPerBlock
  return { AmendExchangeConfig: payload }
}

export function setAccountFrozen(p: { account: string; frozen: boolean }) {
  return { SetAccountFrozen: { account: p.account.toLowerCase(), frozen: p.frozen } }
}

export function forceCancelAccountOrders(p: { account: string; marketId?: number }) {
  const payload: Record<string, unknown> = { account: p.account.toLowerCase() }
  if (p.marketId !== undefined) payload.market_id = p.marketId
  return { ForceCancelAccountOrders: payload }
}

// Trigger orders and OCO pairs (area: triggers). Optional fields are omitted when absent; an
// explicit expires_at_ms null (never expires) is kept, as it is hashed as nil.
import type { AmendTriggerOrderPayload, CancelOcoPairPayload, CancelTriggerOrderPayload, PlaceOcoPairPayload, PlaceTriggerOrderPayload } from '../wire/actions/triggers.ts'

export function placeTriggerOrder(p: PlaceTriggerOrderPayload) {
  const payload: Record<string, unknown> = {
    market_id: p.market_id, side: p.side, qty: p.qty, trigger_price: p.trigger_price, trigger_direction: p.trigger_direction,
    order_type: p.order_type,
  }
  if (p.limit_price !== undefined) payload.limit_price = p.limit_price
  if (p.tif !== undefined) payload.tif = p.tif
  payload.reduce_only = p.reduce_only
  if (p.client_order_id !== undefined) payload.client_order_id = p.client_order_id
  if (p.expires_at_ms !== undefined) payload.expires_at_ms = p.expires_at_ms
  return { PlaceTriggerOrder: payload }
}

export function amendTriggerOrder(p: AmendTriggerOrderPayload) {
  const payload: Record<string, unknown> = { market_id: p.market_id, trigger_id: p.trigger_id }
  if (p.trigger_price !== undefined) payload.trigger_price = p.trigger_price
  if (p.qty !== undefined) payload.qty = p.qty
  if (p.limit_price !== undefined) payload.limit_price = p.limit_price
  if (p.tif !== undefined) payload.tif = p.tif
  if (p.expires_at_ms !== undefined) payload.expires_at_ms = p.expires_at_ms
  return { AmendTriggerOrder: payload }
}

export function cancelTriggerOrder(p: CancelTriggerOrderPayload) {
  const payload: Record<string, unknown> = { market_id: p.market_id }
  if (p.trigger_id !== undefined) payload.trigger_id = p.trigger_id
  if (p.client_order_id !== undefined) payload.client_order_id = p.client_order_id
  return { CancelTriggerOrder: payload }
}

export function placeOcoPair(p: PlaceOcoPairPayload) {
  const stop: Record<string, unknown> = { trigger_price: p.stop.trigger_price, trigger_direction: p.stop.trigger_direction, order_type: p.stop.order_type }
  if (p.stop.limit_price !== undefined) stop.limit_price = p.stop.limit_price
  if (p.stop.expires_at_ms !== undefined) stop.expires_at_ms = p.stop.expires_at_ms
  const payload: Record<string, unknown> = {
    market_id: p.market_id, side: p.side, qty: p.qty, limit_price: p.limit_price, stop, reduce_only: p.reduce_only, client_pair_id: p.client_pair_id,
  }
  if (p.parent_order_id !== undefined) payload.parent_order_id = p.parent_order_id
  return { PlaceOcoPair: payload }
}

export function cancelOcoPair(p: CancelOcoPairPayload) {
  const payload: Record<string, unknown> = { market_id: p.market_id }
  if (p.pair_id !== undefined) payload.pair_id = p.pair_id
  if (p.client_pair_id !== undefined) payload.client_pair_id = p.client_pair_id
  return { CancelOcoPair: payload }
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
  const out: Record<string, unknown> = {}
  if (p.market_id !== undefined) out.market_id = p.market_id
  if (p.symbol !== undefined) out.symbol = p.symbol
  return out
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
    if (q.last_price !== undefined) item.last_price = q.last_price
    if (q.volume !== undefined) item.volume = q.volume
    return item
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
      modifies: modifies.map((m) => {
        const item: Record<string, unknown> = { market_id: m.market_id }
        if (m.order_id !== undefined) item.order_id = m.order_id
        if (m.client_order_id !== undefined) item.client_order_id = m.client_order_id
        if (m.price !== undefined) item.price = m.price
        if (m.qty !== undefined) item.qty = m.qty
        if (m.tif !== undefined) item.tif = m.tif
        return item
      }),
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

/** ScheduleCancel: the dead man's switch at deadlineMs (5 s to 24 h after block time), or null to clear it. */
export function scheduleCancel(deadlineMs: number | null) {
  return { ScheduleCancel: { deadline_ms: deadlineMs } }
}

/** Noop: consumes a nonce and does nothing (invalidates an action signed with that nonce). */
export function noop() {
  return { Noop: {} }
}
