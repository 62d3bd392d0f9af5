import { describe, expect, test } from 'bun:test'
import { packDecimal } from '../lib/decimal.ts'
import { ACTION_KINDS } from '../wire/actions.ts'
import { atTheEdge } from './edge-envelope.ts'

/** An envelope's own fields, which a flattened envelope (atTheEdge) carries before its payload's. */
const HEAD_KEYS = ['signer', 'nonce', 'action', 'txHash', 'kind', 'payload']
/** The kinds whose envelopes the edge flattens. */
const FLATTENED = ['PlaceOrder', 'CancelOrder', 'BatchPlaceOrder', 'BatchModify', 'PlaceTriggerOrder', 'CancelTriggerOrder']

/** The payload atTheEdge hands the chain for an action, without the envelope's own fields. */
function edgeFields(kind: string, action: Record<string, unknown>): Record<string, unknown> {
  const e = atTheEdge({ signer: '0xabc', nonce: 7, action, txHash: '0x01' }, kind)
  const p = e.payload!
  return p === (e as unknown) ? Object.fromEntries(Object.entries(p).filter(([k]) => !HEAD_KEYS.includes(k))) : p
}

describe('envelopes at the edge', () => {
  test('copy the busy order payloads into their one shape per kind, with the decimals packed beside', () => {
    const place = { PlaceOrder: { market_id: 1, side: 'Bid', price: '65000.5', qty: '0.01', tif: 'Gtc', reduce_only: false } }
    const copy = edgeFields('PlaceOrder', place)
    expect(copy).toEqual({ ...place.PlaceOrder, edge_price: packDecimal('65000.5'), edge_qty: packDecimal('0.01') })
    expect(place.PlaceOrder).not.toHaveProperty('edge_price')
    // Keys in another order, and the optional ones given: the same shape (keys in the schema's order).
    const reordered = {
      PlaceOrder: {
        expires_at_ms: 9,
        reduce_only: true,
        qty: '2',
        client_order_id: 'a',
        tif: 'Ioc',
        price: '1',
        side: 'Ask',
        market_id: 2,
      },
    }
    expect(Object.keys(edgeFields('PlaceOrder', reordered))).toEqual(Object.keys(copy))
    expect(edgeFields('PlaceOrder', reordered)).toEqual({
      ...reordered.PlaceOrder,
      edge_price: packDecimal('1'),
      edge_qty: packDecimal('2'),
    })

    const batch = { BatchPlaceOrder: { orders: [place.PlaceOrder, place.PlaceOrder] } }
    expect(edgeFields('BatchPlaceOrder', batch)).toEqual({ orders: [copy, copy] })

    const modify = {
      BatchModify: {
        modifies: [
          { market_id: 1, order_id: 3, qty: '0.5' },
          { market_id: 1, order_id: 4, price: '10', tif: 'Ioc' },
        ],
      },
    }
    const modified = edgeFields('BatchModify', modify) as { modifies: Record<string, unknown>[] }
    expect(modified).toEqual({
      modifies: [
        { market_id: 1, order_id: 3, qty: '0.5', edge_qty: packDecimal('0.5') },
        { market_id: 1, order_id: 4, price: '10', tif: 'Ioc', edge_price: packDecimal('10') },
      ],
    })
    expect(Object.keys(modified.modifies[0]!)).toEqual(Object.keys(modified.modifies[1]!))

    const trigger = {
      PlaceTriggerOrder: {
        market_id: 1,
        side: 'Ask',
        qty: '1',
        trigger_price: '60000',
        trigger_direction: 'Below',
        order_type: 'limit',
        limit_price: '59990.5',
        reduce_only: true,
      },
    }
    expect(edgeFields('PlaceTriggerOrder', trigger)).toEqual({
      ...trigger.PlaceTriggerOrder,
      edge_trigger_price: packDecimal('60000'),
      edge_qty: packDecimal('1'),
      edge_limit_price: packDecimal('59990.5'),
    })

    // Cancels have no decimals but one shape too.
    const cancels = [{ CancelOrder: { order_id: 3, market_id: 1 } }, { CancelOrder: { market_id: 1, client_order_id: 'x' } }].map((a) =>
      edgeFields('CancelOrder', a),
    )
    expect(cancels).toEqual([
      { market_id: 1, order_id: 3 },
      { market_id: 1, client_order_id: 'x' },
    ])
    expect(Object.keys(cancels[0]!)).toEqual(Object.keys(cancels[1]!))
    expect(Object.keys(edgeFields('CancelTriggerOrder', { CancelTriggerOrder: { trigger_id: 5, market_id: 1 } }))).toEqual([
      'market_id',
      'trigger_id',
      'client_order_id',
    ])

    // Any other kind, and a malformed payload, go to the chain as they are.
    const other = { ScheduleCancel: { deadline_ms: null } }
    expect(edgeFields('ScheduleCancel', other)).toBe(other.ScheduleCancel)
    const malformed = { BatchPlaceOrder: { orders: 'none' } }
    expect(edgeFields('BatchPlaceOrder', malformed)).toBe(malformed.BatchPlaceOrder)
  })
})

test("atTheEdge hands over the action as signed and the kind it is given; a busy kind's payload fields are the envelope's own", () => {
  const action = { PlaceOrder: { qty: '0.5', market_id: 1, side: 'Bid', price: '100.25', tif: 'Gtc', reduce_only: false } }
  const e = atTheEdge({ signer: '0xabc', nonce: 7, action, txHash: '0x01' }, 'PlaceOrder')
  expect(Object.is(e.payload, e)).toBe(true)
  expect(e).toMatchObject({
    signer: '0xabc',
    nonce: 7,
    txHash: '0x01',
    kind: 'PlaceOrder',
    market_id: 1,
    price: '100.25',
    edge_price: packDecimal('100.25'),
  })
  expect(e.action).toBe(action)
  expect(Object.keys(e).slice(0, HEAD_KEYS.length)).toEqual(HEAD_KEYS)

  // Any other kind keeps its payload apart, as signed.
  const other = { ScheduleCancel: { deadline_ms: null } }
  const o = atTheEdge({ signer: '0xabc', nonce: 8, action: other, txHash: '0x02' }, 'ScheduleCancel')
  expect(o).toEqual({ signer: '0xabc', nonce: 8, action: other, txHash: '0x02', kind: 'ScheduleCancel', payload: other.ScheduleCancel })
})

test("no payload schema of a flattened kind has a field named as an envelope's own", () => {
  for (const kind of FLATTENED) {
    const fields = Object.keys(ACTION_KINDS.find((k) => k.name === kind)!.schema.properties)
    expect({ kind, clashes: fields.filter((f) => HEAD_KEYS.includes(f)) }).toEqual({ kind, clashes: [] })
  }
})
