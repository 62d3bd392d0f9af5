import { describe, expect, test } from 'bun:test'
import { WARM_SPAN, warmEnvelopes, warmedTotal } from './warm-envelopes.ts'

describe('warmEnvelopes', () => {
  test('reads the client ids of single payloads and of batch items in the span, and nothing after it', () => {
    const envelopes = [
      { kind: 'PlaceOrder', payload: { market_id: 1, client_order_id: 'abc' } },
      { kind: 'BatchPlaceOrder', payload: { orders: [{ market_id: 1, client_order_id: 'de' }, { market_id: 2 }] } },
      { kind: 'BatchModify', payload: { modifies: [{ market_id: 1, client_order_id: 'f' }] } },
      ...Array.from({ length: WARM_SPAN }, () => ({ kind: 'PlaceOrder', payload: { market_id: 1, client_order_id: 'zzzz' } })),
    ]
    const before = warmedTotal()
    warmEnvelopes(envelopes, 0)
    // abc + de + f, then WARM_SPAN - 3 envelopes of four characters each.
    expect(warmedTotal() - before).toBe(3 + 2 + 1 + 4 * (WARM_SPAN - 3))
  })

  test('passes over envelopes without a payload, odd payloads and the end of the block, changing nothing', () => {
    const envelopes = [
      { kind: 'CancelOrder' },
      { kind: 'BatchPlaceOrder', payload: { orders: 'not an array' } },
      { kind: 'BatchModify', payload: { modifies: [{}, null, 3] } },
      { kind: 'PlaceOrder', payload: { market_id: 0, client_order_id: 7 } },
    ]
    const copy = structuredClone(envelopes)
    const before = warmedTotal()
    warmEnvelopes(envelopes, 0)
    warmEnvelopes(envelopes, 2)
    warmEnvelopes(envelopes, 10)
    expect(envelopes).toEqual(copy)
    // market_id 0 counts once per read of it: the first call and the call from index 2.
    expect(warmedTotal() - before).toBe(2)
  })
})
