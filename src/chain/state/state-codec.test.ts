// The snapshot codec: a state round-trips to the same object graph (prototypes, key and iteration
// orders, sharing) and goes on to the same roots and events; what it cannot restore is refused when
// encoding; bytes it did not write are refused when decoding, with an error, never a wrong state.
// (Every seeded random workload also round-trips its replay halfway: test/support/chain/workload.ts.)
import { describe, expect, test } from 'bun:test'
import { Packr } from 'msgpackr'
import { graphDifference } from '../../../test/support/chain/graph.ts'
import { ALICE, BOB, BTC, cancel, cancelByCloid, ETH, place, TestChain } from '../../../test/support/chain/test-chain.ts'
import { eventsText } from '../../../test/support/chain/workload.ts'
import { bytesToHex } from '../../lib/hex.ts'
import type { ChainState } from '../core/types.ts'
import { decodeState, encodeState, STATE_CODEC_VERSION } from './state-codec.ts'
import { fullStateRoot } from './state-root.ts'

/** A chain with resting orders on both sides, client ids, an expiry, fills and a cancel. */
function tradedChain(): TestChain {
  const chain = new TestChain()
  chain.placeOk(ALICE, place(BTC, 'Bid', '64000', '0.5', { cloid: 'a-1' }))
  chain.placeOk(ALICE, place(BTC, 'Bid', '63990', '0.25'))
  const gone = chain.placeOk(BOB, place(ETH, 'Ask', '3600', '2'))
  chain.ok(BOB, cancel(ETH, gone))
  chain.placeOk(BOB, place(BTC, 'Ask', '64010', '1', { cloid: 'b-1' }))
  chain.ok(BOB, place(BTC, 'Ask', '64000', '0.2', { tif: 'Ioc' }))
  chain.ok(ALICE, {
    PlaceOrder: {
      market_id: ETH,
      side: 'Bid',
      price: '3500',
      qty: '1',
      tif: 'Gtc',
      reduce_only: false,
      expires_at_ms: chain.state.timestampMs + 60_000,
    },
  })
  return chain
}

const roundTrip = (state: ChainState): ChainState => decodeState(encodeState(state))

describe('state codec', () => {
  test('a traded state comes back as the same graph and root, and both go on alike', () => {
    const a = tradedChain()
    const b = new TestChain(roundTrip(a.state))
    // The same graph but for the root's accumulator, which decoding rebuilds from every leaf.
    expect(graphDifference({ ...a.state, hash: null }, { ...b.state, hash: null })).toBeUndefined()
    expect(bytesToHex(b.state.hash.root())).toBe(bytesToHex(fullStateRoot(a.state)))
    expect(b.state.hash.leafCount).toBe(a.state.hash.leafCount)
    // The same next envelopes on both: same events, same roots.
    for (const action of [place(BTC, 'Ask', '63990', '0.6'), cancelByCloid(BTC, 'b-1'), place(ETH, 'Ask', '3500', '0.5')]) {
      const envelope = a.envelope({ by: BOB, action })
      const ra = a.applyEnvelopes([envelope])
      const rb = b.applyEnvelopes([envelope])
      expect(eventsText(rb)).toBe(eventsText(ra))
      expect(bytesToHex(rb.stateRoot)).toBe(bytesToHex(ra.stateRoot))
    }
  })

  test('sharing survives: one order object in its book and its account index', () => {
    const restored = roundTrip(tradedChain().state)
    const id = restored.accounts.get(ALICE)!.ordersByClientId.getIn(BTC, 'a-1')!
    expect(restored.books.get(BTC)!.get(id)).toBe(restored.accounts.get(ALICE)!.orders.get(id)!)
  })

  test('what it cannot restore is refused when encoding', () => {
    const refusals: [string, (s: ChainState) => void, RegExp][] = [
      ['an unregistered class', (s) => Object.assign(s.params, { extra: new (class Unknown {})() }), /unregistered class Unknown/],
      ['a closure', (s) => Object.assign(s.params, { extra: () => 1 }), /unregistered function/],
      ['a Date', (s) => Object.assign(s.params, { extra: new Date(0) }), /Date/],
      ['a symbol key', (s) => Object.assign(s.params, { [Symbol('x')]: 1 }), /symbol keys/],
      ['an accessor', (s) => Object.defineProperty(s.params, 'extra', { get: () => 1, enumerable: true }), /accessor/],
      ['NaN', (s) => Object.assign(s.params, { extra: Number.NaN }), /NaN/],
    ]
    for (const [what, spoil, message] of refusals) {
      const state = tradedChain().state
      spoil(state)
      expect({
        what,
        error: (() => {
          try {
            encodeState(state)
            return 'none'
          } catch (err) {
            return (err as Error).message
          }
        })(),
      }).toEqual({ what, error: expect.stringMatching(message) })
    }
  })

  test('bytes it did not write are refused with an error', () => {
    const good = encodeState(tradedChain().state)
    const packr = new Packr({ useRecords: false })
    const [, shapes, entries] = packr.unpack(good) as [number, unknown[], unknown[][]]
    const cases: [string, Uint8Array][] = [
      ['empty', new Uint8Array(0)],
      ['random bytes', Uint8Array.from({ length: 64 }, (_, i) => (i * 73 + 11) & 0xff)],
      ['truncated', good.subarray(0, good.length >> 1)],
      ['another version', packr.pack([STATE_CODEC_VERSION + 1, shapes, entries])],
      ['a dangling reference', packr.pack([STATE_CODEC_VERSION, shapes, [[0, 0, ...entries[0]!.slice(2).map(() => [2, 1e9])]]])],
      ['an unknown class', packr.pack([STATE_CODEC_VERSION, [['NoSuchClass']], [[0, 0]]])],
      ['an unknown function', packr.pack([STATE_CODEC_VERSION, [['', 'f']], [[0, 0, [3, 'nope']]]])],
      ['a malformed bigint', packr.pack([STATE_CODEC_VERSION, [['', 'n']], [[0, 0, [1, '12x']]]])],
      ['a shape mismatch', packr.pack([STATE_CODEC_VERSION, [['', 'a', 'b']], [[0, 0, 1]]])],
    ]
    for (const [what, bytes] of cases) {
      expect({
        what,
        threw: (() => {
          try {
            decodeState(bytes)
            return false
          } catch (err) {
            return err instanceof Error
          }
        })(),
      }).toEqual({ what, threw: true })
    }
  })
})
