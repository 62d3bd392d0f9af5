// Admission refuses what it cannot hash as a -32602, instead of failing inside the hash.
import { expect, test } from 'bun:test'
import { createGenesisState } from '../chain/genesis.ts'
import { admit } from './admission.ts'
import { devGenesis } from './dev-genesis.ts'

test('a string with a lone UTF-16 surrogate is refused with -32602 naming the field', () => {
  const { state } = createGenesisState(devGenesis())
  const params = {
    action: { PlaceOrder: { market_id: 1, side: 'Bid', price: '1000', qty: '0.01', tif: 'Gtc', reduce_only: false, client_order_id: 'a\ud800b' } },
    nonce: 0,
    signature: { r: '0x1', s: '0x1', v: 27 },
  }
  const r = admit(state, params, () => false)
  expect(r).toMatchObject({ ok: false, error: { code: -32602, data: { reason: 'INVALID_PARAMS', field: 'params.action.PlaceOrder.client_order_id' } } })
})
