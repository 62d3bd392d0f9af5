// The nonce manager keeps every nonce it hands out within the node's window of the oldest one
// still outstanding (docs/protocol.md#nonces), queues take() calls while the window is full, and
// resyncs from getNonce after a NONCE_REPLAY. The node is a stub here; test/e2e/nonce-window.test.ts
// drives a real one.
import { describe, expect, test } from 'bun:test'
import { NonceManager, type NonceSource } from './nonce-manager.ts'
import type { QueryResult } from './rpc-client.ts'

/** A getNonce stub: the record it answers can be changed between calls; counts the reads. */
function stubNode(nonce = 0, usedAbove: number[] = []) {
  const node = {
    nonce,
    usedAbove,
    reads: 0,
    fail: false,
    async query<T>(method: string, params: Record<string, unknown> = {}): Promise<QueryResult<T>> {
      expect(method).toBe('getNonce')
      expect(params.address).toBe('0xabc')
      node.reads++
      await Promise.resolve()
      if (node.fail) throw new Error('node down')
      return {
        height: 1,
        chain_height: 1,
        stale: false,
        data: { address: '0xabc', nonce: node.nonce, window: 64, used_above: [...node.usedAbove] } as T,
      }
    },
  } satisfies NonceSource & Record<string, unknown>
  return node
}

/** Lets queued promise callbacks run. */
const settle = () => new Promise((r) => setTimeout(r, 0))

/** A take() whose result can be checked without awaiting it. */
function tracked(m: NonceManager) {
  const t = { value: undefined as number | undefined, error: undefined as unknown }
  m.take().then(
    (v) => {
      t.value = v
    },
    (e) => {
      t.error = e
    },
  )
  return t
}

async function takeMany(m: NonceManager, n: number): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < n; i++) out.push(await m.take())
  return out
}

describe('NonceManager', () => {
  test("starts at the node's lowest unused nonce and hands out increasing nonces", async () => {
    const node = stubNode(7)
    const m = new NonceManager(node, '0xabc')
    expect(await Promise.all([m.take(), m.take(), m.take()])).toEqual([7, 8, 9])
    expect(node.reads).toBe(1)
    expect(m.inFlightCount).toBe(3)
  })

  test('a full window makes the next take() wait; completing the oldest frees a slot', async () => {
    const m = new NonceManager(stubNode(0), '0xabc')
    const first = await takeMany(m, 64)
    expect(first).toEqual(Array.from({ length: 64 }, (_, i) => i))
    const waiting = tracked(m)
    await settle()
    expect(waiting.value).toBeUndefined()
    expect(m.waitingCount).toBe(1)
    m.complete(0)
    await settle()
    expect(waiting.value).toBe(64)
    expect(m.inFlightCount).toBe(64)
  })

  test('completing a newer nonce frees nothing while the oldest is in flight (out-of-order completion)', async () => {
    const m = new NonceManager(stubNode(100), '0xabc')
    await takeMany(m, 64) // 100..163
    const a = tracked(m)
    const b = tracked(m)
    for (let n = 101; n <= 163; n++) m.complete(n)
    await settle()
    // 164 would be 64 above 100, which is still in flight.
    expect(a.value).toBeUndefined()
    expect(b.value).toBeUndefined()
    m.complete(100)
    await settle()
    // Everything up to 163 is done: 164 and 165 both fit, in the order they were asked for.
    expect(a.value).toBe(164)
    expect(b.value).toBe(165)
  })

  test('the window follows the oldest in flight, not the count in flight', async () => {
    const m = new NonceManager(stubNode(0), '0xabc')
    await takeMany(m, 64) // 0..63
    m.complete(1)
    m.complete(2)
    const a = tracked(m)
    await settle()
    // Two slots are free but 0 is still in flight, so 64 may not go yet.
    expect(a.value).toBeUndefined()
    m.complete(0)
    await settle()
    expect(a.value).toBe(64)
    // Oldest now 3: 65 and 66 fit (< 3 + 64), 67 does not.
    const more = [tracked(m), tracked(m), tracked(m)]
    await settle()
    expect(more.map((t) => t.value)).toEqual([65, 66, undefined])
    m.complete(3)
    await settle()
    expect(more[2]!.value).toBe(67)
  })

  test('waiting calls are served first come first served', async () => {
    const m = new NonceManager(stubNode(0), '0xabc', 4)
    await takeMany(m, 4)
    const order: number[] = []
    const calls = [m.take(), m.take(), m.take()].map((p, i) =>
      p.then((n) => {
        order.push(i)
        return n
      }),
    )
    await settle()
    expect(order).toEqual([])
    m.complete(0)
    m.complete(1)
    m.complete(2)
    expect(await Promise.all(calls)).toEqual([4, 5, 6])
    expect(order).toEqual([0, 1, 2])
  })

  test('a nonce given back after a refusal is handed out again first, and still holds the window', async () => {
    const m = new NonceManager(stubNode(0), '0xabc')
    await takeMany(m, 64) // 0..63
    m.giveBack(5)
    m.complete(0)
    expect(await m.take()).toBe(5)
    // 5 is in flight again and 1 is the oldest: 64 fits (< 1 + 64), 65 does not.
    expect(await m.take()).toBe(64)
    const next = tracked(m)
    await settle()
    expect(next.value).toBeUndefined()
    m.complete(1)
    await settle()
    expect(next.value).toBe(65)
  })

  test('a given-back nonce waits for room like any other', async () => {
    const m = new NonceManager(stubNode(0), '0xabc', 4)
    await takeMany(m, 4) // 0..3
    m.complete(0)
    expect(await m.take()).toBe(4) // 1..4 in flight
    m.giveBack(3)
    expect(await m.take()).toBe(3)
  })

  test('after a NONCE_REPLAY it rereads the node and hands out its lowest unused nonce, skipping used and in-flight ones', async () => {
    const node = stubNode(0)
    const m = new NonceManager(node, '0xabc')
    await takeMany(m, 10) // 0..9
    for (const n of [0, 1, 2, 3]) m.complete(n)
    // Another client used 4, 10 and 11 with the same key; our 4 was refused with NONCE_REPLAY.
    node.nonce = 5
    node.usedAbove = [10, 11]
    await m.replayed(4)
    expect(node.reads).toBe(2)
    // 5..9 are still ours in flight, 10 and 11 are used: next is 12.
    expect(await m.take()).toBe(12)
    expect(await m.take()).toBe(13)
  })

  test('a resync can move the nonces down to fill a gap left by a lost action', async () => {
    const node = stubNode(0)
    const m = new NonceManager(node, '0xabc')
    await takeMany(m, 3) // 0, 1, 2
    m.complete(0) // its reply was lost: the node never got it
    m.complete(1)
    m.complete(2)
    node.nonce = 0
    node.usedAbove = [1, 2]
    expect(await m.take()).toBe(3)
    await m.replayed(3) // say, refused because 3 >= 0 + window on a small window
    expect(await m.take()).toBe(0)
    expect(await m.take()).toBe(3)
  })

  test('concurrent NONCE_REPLAYs share one read; a replay of a nonce handed out before the last resync reads nothing', async () => {
    const node = stubNode(0)
    const m = new NonceManager(node, '0xabc')
    await takeMany(m, 3) // 0, 1, 2
    node.nonce = 3
    await Promise.all([m.replayed(0), m.replayed(1)])
    expect(node.reads).toBe(2)
    await m.replayed(2) // handed out before the resync that just finished
    expect(node.reads).toBe(2)
    expect(await m.take()).toBe(3)
  })

  test('take() calls during a resync wait for it', async () => {
    const node = stubNode(0)
    const m = new NonceManager(node, '0xabc')
    await m.take()
    node.nonce = 40
    const resync = m.replayed(0)
    const t = await m.take()
    await resync
    expect(t).toBe(40)
  })

  test('a failed first read fails the waiting take() calls; the next take() reads again', async () => {
    const node = stubNode(3)
    node.fail = true
    const m = new NonceManager(node, '0xabc')
    await expect(m.take()).rejects.toThrow('node down')
    node.fail = false
    expect(await m.take()).toBe(3)
  })

  test('a failed resync keeps the nonces it had and lets waiting calls go on', async () => {
    const node = stubNode(0, [])
    const m = new NonceManager(node, '0xabc', 2)
    await takeMany(m, 2) // 0, 1
    const waiting = tracked(m)
    node.fail = true
    await expect(m.replayed(0)).rejects.toThrow('node down')
    await settle()
    // 0 left the in-flight set, so 2 fits beside 1.
    expect(waiting.value).toBe(2)
  })
})
