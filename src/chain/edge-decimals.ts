// Decimal strings parsed once, at the edge (ARCHITECTURE.md: money is integer in the chain).
//
// The node parses the decimal fields of the busy order actions (PlaceOrder, BatchPlaceOrder,
// BatchModify, PlaceTriggerOrder) when it admits an envelope (node/admission.ts) or reads one back
// for replay (node/chain-node.ts), before the block is applied. What it can parse without knowing the market, it packs into one number: the
// significant digits and the places after the point, trailing zeros dropped ("65000.50" -> 650005
// at 1 place). In the block the chain turns that into ticks or lots at the market's precision with
// one multiplication (unitsFromPacked), instead of reading the string again.
//
// The packed fields ride beside the strings in a copy of the payload (`edge_price`, ...), whose
// fields the busy kinds' envelopes carry themselves (atTheEdge); the stored and signed action is
// never changed. A field the edge could not pack (anything but a short plain decimal), or an
// envelope that never passed an edge (tests, tools), is parsed by the chain as before, which gives
// the same value or words the error. So the edge changes speed, never outcomes:
// src/chain/edge-decimals.test.ts holds the two paths to the same results.
//
// The copy has one shape per kind: after the envelope's own fields, the schema's fields in the
// schema's order, an absent optional field present as undefined (the chain reads every optional
// field with `=== undefined` or `??`, so the two are the same to it), then the packed fields.
// Clients send keys in any order and leave optional ones out, so payloads off the wire come in many
// shapes, and the chain's reads of their fields would go through polymorphic or megamorphic caches:
// with their keys in seven orders, resting orders and their cancels were up to a quarter slower
// than with one (scripts/bench/payload-shapes.ts). The schemas allow no other fields (admission
// refused them), so the copy carries every field there is. CancelOrder and CancelTriggerOrder, busy
// but without decimals, get their one shape too.

import type { EnvelopeInput } from './apply.ts'
import { decimalUnits } from './fast-decimal.ts'

/** A decimal the edge could not pack: the chain parses the string itself. */
export const NOT_PACKED = -1

/** Places are packed in the low 4 bits' worth (digits * 16 + places); market precisions are 0-12. */
const PLACES_RADIX = 16
const PLACES_MAX = 12
/** Digits accumulated at most: below 10^15 every step is exact. */
const DIGITS_STEPS_MAX = 15
/** digits * 16 + places stays exact below 2^53. */
const DIGITS_PACKABLE_MAX = 2 ** 49
/** Longer strings are left to the chain's parser (the schema allows 40 characters). */
const LENGTH_MAX = 32
const POW10: readonly number[] = Array.from({ length: PLACES_MAX + 1 }, (_, k) => 10 ** k)

/**
 * A positive plain decimal ("0" | "0.ddd" | "[1-9]d*" with an optional ".d+", as the wire schema's
 * DecimalString) packed as digits * 16 + places with trailing zeros dropped; NOT_PACKED for zero,
 * anything else, more than 15 significant steps or more than 12 places.
 */
export function packDecimal(s: unknown): number {
  if (typeof s !== 'string') return NOT_PACKED
  const len = s.length
  if (len === 0 || len > LENGTH_MAX) return NOT_PACKED
  let digits = 0
  let steps = 0
  let i = 0
  let c = s.charCodeAt(0)
  if (c === 48) {
    // "0" or "0.xxx": a leading zero stands alone before the point.
    i = 1
    if (len > 1 && s.charCodeAt(1) !== 46) return NOT_PACKED
  } else {
    while (i < len) {
      c = s.charCodeAt(i)
      if (c < 48 || c > 57) break
      digits = digits * 10 + (c - 48)
      steps++
      i++
    }
    if (i === 0 || (i < len && c !== 46)) return NOT_PACKED
  }
  let places = 0
  if (i < len) {
    i++ // the point
    if (i === len) return NOT_PACKED // "1." has no fraction digits
    // One past the last non-zero fraction digit: the zeros after it are dropped.
    let end = i
    for (let j = i; j < len; j++) {
      c = s.charCodeAt(j)
      if (c < 48 || c > 57) return NOT_PACKED
      if (c !== 48) end = j + 1
    }
    for (let j = i; j < end; j++) {
      digits = digits * 10 + (s.charCodeAt(j) - 48)
      steps++
      places++
    }
  }
  if (digits === 0 || steps > DIGITS_STEPS_MAX || places > PLACES_MAX || digits >= DIGITS_PACKABLE_MAX) return NOT_PACKED
  return digits * PLACES_RADIX + places
}

/**
 * A packed decimal as a positive count of units at `decimals` places (what parseDecimal gives, as
 * a number), or -1 when the chain must parse the string: not packed, more precise than the market,
 * or beyond the safe-integer range.
 */
export function unitsFromPacked(packed: number | undefined, decimals: number): number {
  if (packed === undefined || packed < 0) return -1
  const places = packed % PLACES_RADIX
  if (places > decimals) return -1
  const units = ((packed - places) / PLACES_RADIX) * POW10[decimals - places]!
  return units <= Number.MAX_SAFE_INTEGER ? units : -1
}

/**
 * A decimal field's units at `decimals` places: from its packed form when the edge packed it, else
 * by the chain's fast parser (fast-decimal.ts); -1 when neither applies and the general parser
 * (lib/decimal.ts) must decide and word the error.
 */
export function unitsOf(raw: string, packed: number | undefined, decimals: number): number {
  const units = unitsFromPacked(packed, decimals)
  return units > 0 ? units : decimalUnits(raw, decimals)
}

/** The packed fields the edge adds to a PlaceOrder payload (and each BatchPlaceOrder item), and to
 * a BatchModify item for the fields it has. */
export interface EdgeOrderDecimals {
  readonly edge_price?: number
  readonly edge_qty?: number
}

/** The packed fields the edge adds to a PlaceTriggerOrder payload. */
export interface EdgeTriggerDecimals {
  readonly edge_trigger_price?: number
  readonly edge_limit_price?: number
  readonly edge_qty?: number
}

type Payload = Record<string, unknown>

/** A packed optional decimal: undefined when the field is absent. */
const packOptional = (s: unknown): number | undefined => (s === undefined ? undefined : packDecimal(s))

/** A BatchPlaceOrder item (PlaceOrder's fields, as placeOrderEnvelope has them after the head). */
const placeOrderAtEdge = (p: Payload): Payload => ({
  market_id: p.market_id, side: p.side, price: p.price, qty: p.qty, tif: p.tif, reduce_only: p.reduce_only,
  client_order_id: p.client_order_id, expires_at_ms: p.expires_at_ms, edge_price: packDecimal(p.price), edge_qty: packDecimal(p.qty),
})

/** A BatchModify item. */
const modifyAtEdge = (m: Payload): Payload => ({
  market_id: m.market_id, order_id: m.order_id, client_order_id: m.client_order_id, price: m.price, qty: m.qty, tif: m.tif,
  edge_price: packOptional(m.price), edge_qty: packOptional(m.qty),
})

const isPayload = (x: unknown): x is Payload => typeof x === 'object' && x !== null && !Array.isArray(x)

/** What the edge knows of an envelope besides its kind and payload. */
type EnvelopeHead = Pick<EnvelopeInput, 'signer' | 'nonce' | 'action' | 'txHash'>

/** A flattened envelope: its payload's fields are its own, so its `payload` is the envelope itself. */
function flattened(e: Payload): EnvelopeInput {
  e.payload = e
  return e as unknown as EnvelopeInput
}

/* The flattened envelopes of the busy kinds: the head (an envelope's fields, which no payload schema
 * uses: edge-decimals.test.ts checks), then the payload's fields in the kind's one shape. `payload`
 * is set to the object once it exists. */

const placeOrderEnvelope = (e: EnvelopeHead, p: Payload): EnvelopeInput => flattened({
  signer: e.signer, nonce: e.nonce, action: e.action, txHash: e.txHash, kind: 'PlaceOrder', payload: null,
  market_id: p.market_id, side: p.side, price: p.price, qty: p.qty, tif: p.tif, reduce_only: p.reduce_only,
  client_order_id: p.client_order_id, expires_at_ms: p.expires_at_ms, edge_price: packDecimal(p.price), edge_qty: packDecimal(p.qty),
})

const cancelOrderEnvelope = (e: EnvelopeHead, p: Payload): EnvelopeInput => flattened({
  signer: e.signer, nonce: e.nonce, action: e.action, txHash: e.txHash, kind: 'CancelOrder', payload: null,
  market_id: p.market_id, order_id: p.order_id, client_order_id: p.client_order_id,
})

const batchPlaceEnvelope = (e: EnvelopeHead, orders: unknown[]): EnvelopeInput => flattened({
  signer: e.signer, nonce: e.nonce, action: e.action, txHash: e.txHash, kind: 'BatchPlaceOrder', payload: null,
  orders: orders.map((o) => (isPayload(o) ? placeOrderAtEdge(o) : o)),
})

const batchModifyEnvelope = (e: EnvelopeHead, modifies: unknown[]): EnvelopeInput => flattened({
  signer: e.signer, nonce: e.nonce, action: e.action, txHash: e.txHash, kind: 'BatchModify', payload: null,
  modifies: modifies.map((m) => (isPayload(m) ? modifyAtEdge(m) : m)),
})

const triggerEnvelope = (e: EnvelopeHead, p: Payload): EnvelopeInput => flattened({
  signer: e.signer, nonce: e.nonce, action: e.action, txHash: e.txHash, kind: 'PlaceTriggerOrder', payload: null,
  market_id: p.market_id, side: p.side, qty: p.qty, trigger_price: p.trigger_price, trigger_direction: p.trigger_direction,
  order_type: p.order_type, limit_price: p.limit_price, tif: p.tif, reduce_only: p.reduce_only, client_order_id: p.client_order_id,
  expires_at_ms: p.expires_at_ms, edge_trigger_price: packDecimal(p.trigger_price), edge_limit_price: packOptional(p.limit_price),
  edge_qty: packDecimal(p.qty),
})

const cancelTriggerEnvelope = (e: EnvelopeHead, p: Payload): EnvelopeInput => flattened({
  signer: e.signer, nonce: e.nonce, action: e.action, txHash: e.txHash, kind: 'CancelTriggerOrder', payload: null,
  market_id: p.market_id, trigger_id: p.trigger_id, client_order_id: p.client_order_id,
})

/**
 * An envelope as the edge hands it to the chain: the action as signed, the kind the edge validated
 * (for a stored block, the one it stored) and its payload as the chain takes it. Node admission and
 * replay, the seeded workload tests and the engine bench all give the chain this one shape.
 *
 * For the busy order kinds the payload is a copy in the kind's one shape, decimals packed beside the
 * strings, and it is not a second object: its fields sit in the envelope after the envelope's own,
 * and `payload` is the envelope itself. A large block's envelopes are built long before it runs and
 * are cold when it does; one object instead of two is one cache miss fewer per envelope, before
 * the handler can start (measured: about 4% more operations per second in scripts/bench/engine.ts).
 * Any other kind, or a malformed payload (which the chain rejects as before), goes over as it is.
 * Pure: the action passed in is not changed.
 */
export function atTheEdge(e: EnvelopeHead, kind: string): EnvelopeInput {
  const p = e.action[kind]
  if (isPayload(p)) {
    switch (kind) {
      case 'PlaceOrder': return placeOrderEnvelope(e, p)
      case 'CancelOrder': return cancelOrderEnvelope(e, p)
      case 'BatchPlaceOrder': if (Array.isArray(p.orders)) return batchPlaceEnvelope(e, p.orders); break
      case 'BatchModify': if (Array.isArray(p.modifies)) return batchModifyEnvelope(e, p.modifies); break
      case 'PlaceTriggerOrder': return triggerEnvelope(e, p)
      case 'CancelTriggerOrder': return cancelTriggerEnvelope(e, p)
    }
  }
  return { signer: e.signer, nonce: e.nonce, action: e.action, txHash: e.txHash, kind, payload: p as Payload }
}
