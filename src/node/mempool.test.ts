import { describe, expect, test } from 'bun:test'
import type { ActionResult } from './action-result.ts'
import type { AdmittedEnvelope } from './admission.ts'
import { Mempool, type PendingTx } from './mempool.ts'

function tx(signer: string, nonce: number, replies: ActionResult[] = []): PendingTx {
  return { envelope: { signer, nonce } as AdmittedEnvelope, resolve: (r) => replies.push(r) }
}

/** The envelopes the mempool's queue still references (taken or not). */
function referenced(pool: Mempool): PendingTx[] {
  return ((pool as unknown as { queue: (PendingTx | undefined)[] }).queue ?? []).filter((t) => t !== undefined)
}

describe('Mempool', () => {
  test('takes in arrival order, up to max, and refuses beyond its capacity', () => {
    const pool = new Mempool(3)
    expect(pool.add(tx('a', 0))).toBe(true)
    expect(pool.add(tx('b', 0))).toBe(true)
    expect(pool.add(tx('a', 1))).toBe(true)
    expect(pool.add(tx('c', 0))).toBe(false)
    expect(pool.size).toBe(3)
    expect(pool.take(2).map((t) => `${t.envelope.signer}:${t.envelope.nonce}`)).toEqual(['a:0', 'b:0'])
    expect(pool.size).toBe(1)
    expect(pool.take(5).map((t) => `${t.envelope.signer}:${t.envelope.nonce}`)).toEqual(['a:1'])
    expect(pool.size).toBe(0)
  })

  test('a taken nonce stays in flight until released', () => {
    const pool = new Mempool(10)
    pool.add(tx('a', 7))
    const taken = pool.take(10)
    expect(pool.has('a', 7)).toBe(true)
    pool.release(taken)
    expect(pool.has('a', 7)).toBe(false)
  })

  // A taken envelope's reply promise holds the block's results; the queue must not keep it.
  test('keeps no reference to envelopes it handed out', () => {
    const pool = new Mempool(10_000)
    for (let i = 0; i < 100; i++) pool.add(tx('a', i))
    pool.take(60)
    expect(referenced(pool).map((t) => t.envelope.nonce)).toEqual(Array.from({ length: 40 }, (_, i) => 60 + i))
    pool.take(40)
    expect(referenced(pool)).toEqual([])
    for (let i = 100; i < 5_000; i++) pool.add(tx('a', i))
    for (let i = 0; i < 49; i++) pool.take(100)
    expect(referenced(pool).length).toBe(pool.size)
  })

  test('drain empties it and frees every nonce', () => {
    const pool = new Mempool(10)
    pool.add(tx('a', 0))
    pool.add(tx('b', 1))
    expect(pool.drain().length).toBe(2)
    expect(pool.size).toBe(0)
    expect(pool.has('a', 0) || pool.has('b', 1)).toBe(false)
  })
})
