// Admission refuses what it cannot hash as a -32602, instead of failing inside the hash, and packs
// the decimals of what it admits for the chain.
import { expect, test } from 'bun:test'
import { DEV_KEYS } from '../../test/support/node-process.ts'
import { createGenesisState } from '../chain/index.ts'
import { Signer } from '../client/signer.ts'
import { packDecimal } from '../lib/decimal.ts'
import { admit } from './admission.ts'
import { devGenesis } from './dev-genesis.ts'

test('a string with a lone UTF-16 surrogate is refused with -32602 naming the field', () => {
  const { state } = createGenesisState(devGenesis())
  const params = {
    action: {
      PlaceOrder: { market_id: 1, side: 'Bid', price: '1000', qty: '0.01', tif: 'Gtc', reduce_only: false, client_order_id: 'a\ud800b' },
    },
    nonce: 0,
    signature: { r: '0x1', s: '0x1', v: 27 },
  }
  const r = admit(state, params, () => false)
  expect(r).toMatchObject({
    ok: false,
    error: { code: -32602, data: { reason: 'INVALID_PARAMS', field: 'params.action.PlaceOrder.client_order_id' } },
  })
})

test('a lone surrogate deep in a batch is refused naming its field, through the array index; the first one found is named', () => {
  const { state } = createGenesisState(devGenesis())
  const order = (clientOrderId: string) => ({
    market_id: 1,
    side: 'Bid',
    price: '1000',
    qty: '0.01',
    tif: 'Ioc',
    reduce_only: false,
    client_order_id: clientOrderId,
  })
  const params = {
    action: { BatchPlaceOrder: { orders: [order('fine'), order('a\udc00'), order('\ud800b')] } },
    nonce: 0,
    signature: { r: '0x1', s: '0x1', v: 27 },
  }
  expect(admit(state, params, () => false)).toMatchObject({
    ok: false,
    error: { code: -32602, data: { reason: 'INVALID_PARAMS', field: 'params.action.BatchPlaceOrder.orders.1.client_order_id' } },
  })
})

test('an admitted order carries its decimals packed for the chain; the signed action is left as it was', () => {
  const { state } = createGenesisState(devGenesis())
  const action = { PlaceOrder: { market_id: 1, side: 'Bid', price: '65000.50', qty: '0.0100', tif: 'Gtc', reduce_only: false } }
  const r = admit(state, new Signer(DEV_KEYS[1]!).sign(action, 0, 'dev').params, () => false)
  if (!r.ok) throw new Error(r.error.message)
  expect(r.envelope.action).toBe(action)
  expect(r.envelope.action.PlaceOrder).not.toHaveProperty('edge_price')
  expect(r.envelope.kind).toBe('PlaceOrder')
  expect(r.envelope.input).toMatchObject({
    ...action.PlaceOrder,
    kind: 'PlaceOrder',
    txHash: r.envelope.txHash,
    edge_price: packDecimal('65000.5'),
    edge_qty: packDecimal('0.01'),
  })
  expect(r.envelope.input.payload).toBe(r.envelope.input as unknown as Record<string, unknown>)
})
