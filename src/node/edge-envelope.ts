// Envelopes prepared at the edge, before the block is applied
// (docs/architecture.md#rules-of-the-chain: money is integer in the chain).
//
// The node prepares the envelopes of the busy order actions (PlaceOrder, BatchPlaceOrder,
// BatchModify, PlaceTriggerOrder) when it admits one (node/admission.ts) or reads one back for
// replay (node/chain-node.ts): it packs their decimal fields into numbers the chain reads with one
// multiplication (the format: src/lib/decimal.ts packDecimal), and flattens the payload into the
// envelope.
//
// The packed fields ride beside the strings in a copy of the payload (`edge_price`, ...), whose
// fields the busy kinds' envelopes carry themselves (atTheEdge); the stored and signed action is
// never changed. A field the edge could not pack, or an envelope that never passed an edge (tests,
// tools), is parsed by the chain as before, so the edge changes speed, never outcomes.
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

import type { EnvelopeInput } from '../chain/index.ts'
import { packDecimal } from '../lib/decimal.ts'

type Payload = Record<string, unknown>

/** A packed optional decimal: undefined when the field is absent. */
const packOptional = (s: unknown): number | undefined => (s === undefined ? undefined : packDecimal(s))

/** A BatchPlaceOrder item (PlaceOrder's fields, as placeOrderEnvelope has them after the head). */
const placeOrderAtEdge = (p: Payload): Payload => ({
  market_id: p.market_id,
  side: p.side,
  price: p.price,
  qty: p.qty,
  tif: p.tif,
  reduce_only: p.reduce_only,
  client_order_id: p.client_order_id,
  expires_at_ms: p.expires_at_ms,
  edge_price: packDecimal(p.price),
  edge_qty: packDecimal(p.qty),
})

/** A BatchModify item. */
const modifyAtEdge = (m: Payload): Payload => ({
  market_id: m.market_id,
  order_id: m.order_id,
  client_order_id: m.client_order_id,
  price: m.price,
  qty: m.qty,
  tif: m.tif,
  edge_price: packOptional(m.price),
  edge_qty: packOptional(m.qty),
})

const isPayload = (x: unknown): x is Payload => typeof x === 'object' && x !== null && !Array.isArray(x)

/** What the edge knows of an envelope besides its kind and payload. */
type EnvelopeHead = Pick<EnvelopeInput, 'signer' | 'nonce' | 'action' | 'txHash'>

/** An envelope as a flattened one is built: its own fields, then its payload's. */
type Unflattened = { -readonly [K in keyof EnvelopeInput]: EnvelopeInput[K] } & Payload

/** A flattened envelope: its payload's fields are its own, so its `payload` is the envelope itself. */
function flattened(e: Unflattened): EnvelopeInput {
  e.payload = e
  return e
}

/* The flattened envelopes of the busy kinds: the head (an envelope's fields, which no payload schema
 * uses: edge-envelope.test.ts checks), then the payload's fields in the kind's one shape. `payload`
 * holds its place in the shape and is set to the object once it exists. */

const placeOrderEnvelope = (e: EnvelopeHead, p: Payload): EnvelopeInput =>
  flattened({
    signer: e.signer,
    nonce: e.nonce,
    action: e.action,
    txHash: e.txHash,
    kind: 'PlaceOrder',
    payload: undefined,
    market_id: p.market_id,
    side: p.side,
    price: p.price,
    qty: p.qty,
    tif: p.tif,
    reduce_only: p.reduce_only,
    client_order_id: p.client_order_id,
    expires_at_ms: p.expires_at_ms,
    edge_price: packDecimal(p.price),
    edge_qty: packDecimal(p.qty),
  })

const cancelOrderEnvelope = (e: EnvelopeHead, p: Payload): EnvelopeInput =>
  flattened({
    signer: e.signer,
    nonce: e.nonce,
    action: e.action,
    txHash: e.txHash,
    kind: 'CancelOrder',
    payload: undefined,
    market_id: p.market_id,
    order_id: p.order_id,
    client_order_id: p.client_order_id,
  })

const batchPlaceEnvelope = (e: EnvelopeHead, orders: unknown[]): EnvelopeInput =>
  flattened({
    signer: e.signer,
    nonce: e.nonce,
    action: e.action,
    txHash: e.txHash,
    kind: 'BatchPlaceOrder',
    payload: undefined,
    orders: orders.map((o) => (isPayload(o) ? placeOrderAtEdge(o) : o)),
  })

const batchModifyEnvelope = (e: EnvelopeHead, modifies: unknown[]): EnvelopeInput =>
  flattened({
    signer: e.signer,
    nonce: e.nonce,
    action: e.action,
    txHash: e.txHash,
    kind: 'BatchModify',
    payload: undefined,
    modifies: modifies.map((m) => (isPayload(m) ? modifyAtEdge(m) : m)),
  })

const triggerEnvelope = (e: EnvelopeHead, p: Payload): EnvelopeInput =>
  flattened({
    signer: e.signer,
    nonce: e.nonce,
    action: e.action,
    txHash: e.txHash,
    kind: 'PlaceTriggerOrder',
    payload: undefined,
    market_id: p.market_id,
    side: p.side,
    qty: p.qty,
    trigger_price: p.trigger_price,
    trigger_direction: p.trigger_direction,
    order_type: p.order_type,
    limit_price: p.limit_price,
    tif: p.tif,
    reduce_only: p.reduce_only,
    client_order_id: p.client_order_id,
    expires_at_ms: p.expires_at_ms,
    edge_trigger_price: packDecimal(p.trigger_price),
    edge_limit_price: packOptional(p.limit_price),
    edge_qty: packDecimal(p.qty),
  })

const cancelTriggerEnvelope = (e: EnvelopeHead, p: Payload): EnvelopeInput =>
  flattened({
    signer: e.signer,
    nonce: e.nonce,
    action: e.action,
    txHash: e.txHash,
    kind: 'CancelTriggerOrder',
    payload: undefined,
    market_id: p.market_id,
    trigger_id: p.trigger_id,
    client_order_id: p.client_order_id,
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
      case 'PlaceOrder':
        return placeOrderEnvelope(e, p)
      case 'CancelOrder':
        return cancelOrderEnvelope(e, p)
      case 'BatchPlaceOrder':
        if (Array.isArray(p.orders)) return batchPlaceEnvelope(e, p.orders)
        break
      case 'BatchModify':
        if (Array.isArray(p.modifies)) return batchModifyEnvelope(e, p.modifies)
        break
      case 'PlaceTriggerOrder':
        return triggerEnvelope(e, p)
      case 'CancelTriggerOrder':
        return cancelTriggerEnvelope(e, p)
    }
  }
  // A payload that is no object (admission lets none through) is left for the chain to read from the action.
  return { signer: e.signer, nonce: e.nonce, action: e.action, txHash: e.txHash, kind, payload: isPayload(p) ? p : undefined }
}
