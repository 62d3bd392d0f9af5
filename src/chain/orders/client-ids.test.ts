import { describe, expect, test } from 'bun:test'
import { mulberry32 } from '../../lib/prng.ts'
import { ClientIdIndex, clientIdHash } from './client-ids.ts'

describe('ClientIdIndex', () => {
  test('agrees with a Map keyed by market and client id through churn, rebuilds and growth', () => {
    const next = mulberry32(11)
    const index = new ClientIdIndex()
    const reference = new Map<string, number>()
    const markets = [1, 2, 7, 4_294_967_295]
    for (let step = 0; step < 60_000; step++) {
      const marketId = markets[next() % markets.length]!
      // A pool that grows and shrinks, so the table both grows and fills with tombstones.
      const pool = step < 30_000 ? 40 + (step >> 7) : 300
      const clientId = step % 97 === 0 ? '' : `c-${next() % pool}${step % 5 === 0 ? 'é' : ''}`
      const key = `${marketId}:${clientId}`
      const op = next() % 4
      if (op === 0) {
        // With the hash given (an order resting), or computed.
        if (step % 2 === 0) index.setIn(marketId, clientId, step, clientIdHash(marketId, clientId))
        else index.setIn(marketId, clientId, step)
        reference.set(key, step)
      } else if (op === 1 || op === 2) {
        // By hash and id, as an order leaves: only the entry that holds that id goes (op 2 names
        // another id half the time, which must leave the entry).
        const held = reference.get(key)
        const id = held !== undefined && (op === 1 || next() % 2 === 0) ? held : step
        index.deleteId(marketId, clientIdHash(marketId, clientId), id)
        if (held === id) reference.delete(key)
      }
      expect(index.getIn(marketId, clientId)).toBe(reference.get(key))
      expect(index.hasIn(marketId, clientId)).toBe(reference.has(key))
      expect(index.get(key)).toBe(reference.get(key))
      expect(index.size).toBe(reference.size)
    }
    expect(new Map(index.entries())).toEqual(reference)
  })

  test('the combined key names a market only in canonical decimal form', () => {
    const index = new ClientIdIndex()
    index.setIn(1, 'a:b', 9)
    expect(index.get('1:a:b')).toBe(9)
    expect(index.get('01:a:b')).toBeUndefined()
    expect(index.get('1:a')).toBeUndefined()
    expect(index.get(':a:b')).toBeUndefined()
    expect(index.getIn(2, 'a:b')).toBeUndefined()
  })

  test('an empty index answers without a table', () => {
    const index = new ClientIdIndex()
    expect(index.getIn(1, 'x')).toBeUndefined()
    index.deleteId(1, clientIdHash(1, 'x'), 5)
    expect(index.size).toBe(0)
    expect([...index]).toEqual([])
  })
})
