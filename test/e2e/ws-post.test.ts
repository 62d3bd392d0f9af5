// Actions posted over the WebSocket (docs/websocket.md#posting-actions) on real nodes: many posts on
// one connection from several signers, replies correlated by id; refusals equal to /action's for the
// same bodies; the per-IP and per-signer limits and the in-flight limit; a post whose connection
// closes at once still lands in the chain; PerpdClient sending over a connected PerpdWsClient.
import { afterAll, expect, test } from 'bun:test'
import { cancelOrder, placeOrder } from '../../src/client/actions.ts'
import { PerpdClient } from '../../src/client/perpd-client.ts'
import { RpcCallError, RpcClient } from '../../src/client/rpc-client.ts'
import { Signer } from '../../src/client/signer.ts'
import { PerpdWsClient } from '../../src/client/ws-client.ts'
import { DEV_KEYS, removeDir, startNode } from '../support/node-process.ts'
import { type Frame, until, WsProbe } from './ws-support.ts'

const node = await startNode({ blockTimeMs: 50 })
// The default limits, a low per-IP one, and 4 posts in flight per connection.
const limited = await startNode({
  blockTimeMs: 200,
  specRateLimits: true,
  extraArgs: ['--rate-limit-ip', '30', '--ws-limits', 'posts_in_flight=4'],
})
afterAll(async () => {
  for (const n of [node, limited]) {
    await n.stop()
    removeDir(n.dataDir)
  }
})

const rpc = new RpcClient(node.url)
const signers = DEV_KEYS.slice(1).map((k) => new Signer(k))
const order = (price = '30000.5') => placeOrder({ market_id: 1, side: 'Bid', price, qty: '0.0010', tif: 'Gtc', reduce_only: false })
const nonceOf = async (r: RpcClient, address: string) => (await r.query<{ nonce: number }>('getNonce', { address })).data.nonce

/** Polls an async read until it gives something (generous: the machine may be loaded). */
async function poll<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await read()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(50)
  }
}

/** The reply frames (op post) received since index from, by id. */
function postReplies(probe: WsProbe, from = 0): Map<unknown, Frame> {
  const out = new Map<unknown, Frame>()
  for (const f of probe.frames.slice(from)) if (f.op === 'post') out.set(f.id, f)
  return out
}

/** Waits until at least n post replies have arrived; them by id. */
const repliesOf = (probe: WsProbe, n: number, timeoutMs: number): Promise<Map<unknown, Frame>> =>
  until(
    () => {
      const r = postReplies(probe)
      return r.size >= n && r
    },
    timeoutMs,
    `${n} post replies`,
  )

async function postHttp(url: string, params: unknown, id: unknown = 7): Promise<Frame> {
  const r = await fetch(`${url}/api/v1/action`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'action', params }),
  })
  return (await r.json()) as Frame
}

test('500 posts on one connection from 9 signers: all accepted, each reply carries its post id', async () => {
  const probe = await WsProbe.open(node.url)
  const bases = await Promise.all(signers.map((s) => nonceOf(rpc, s.address)))
  const expected = new Map<string | number, string>()
  for (let i = 0; i < 500; i++) {
    const si = i % signers.length
    const nonce = bases[si]! + Math.floor(i / signers.length)
    const signed = signers[si]!.sign(order(`${30_000 + (i % 50)}.5`), nonce, 'dev')
    // String and number ids both correlate.
    const id = i % 2 === 0 ? i : `order-${i}`
    expected.set(id, signed.txHash)
    probe.send({ op: 'post', id, action: signed.params })
  }
  const replies = await repliesOf(probe, 500, 120_000)
  expect(replies.size).toBe(500)
  for (const [id, txHash] of expected) {
    const f = replies.get(id)!
    expect(f.error).toBeUndefined()
    expect(f.result.status).toBe('accepted')
    expect(f.result.tx_hash).toBe(txHash)
    expect(f.result.events.some((e: { sub_kind: string }) => e.sub_kind === 'OrderAccepted')).toBe(true)
  }
  // Every frame has the connection's next seq.
  expect(probe.frames.map((f) => f.seq)).toEqual(probe.frames.map((_, i) => i + 1))
  probe.close()
}, 180_000)

test("a block's post replies come before its pushes on the connection", async () => {
  const s = signers[1]!
  const address = s.address.toLowerCase()
  const probe = await WsProbe.open(node.url)
  probe.send({ op: 'subscribe', topics: ['block', `orderUpdates.${address}`] })
  await until(() => probe.frames.some((f) => f.op === 'subscribed'), 30_000, 'subscribed')
  const base = await nonceOf(rpc, s.address)
  for (let i = 0; i < 5; i++) probe.send({ op: 'post', id: `p${i}`, action: s.sign(order(`${30_100 + i}.5`), base + i, 'dev').params })
  const replies = await repliesOf(probe, 5, 60_000)
  for (const reply of replies.values()) {
    expect(reply.result.status).toBe('accepted')
    const height = reply.result.height as number
    const pushes = await until(
      () => {
        const own = probe.frames.filter((f) => f.height === height && (f.topic === 'block' || String(f.topic).startsWith('orderUpdates')))
        return own.length >= 2 && own
      },
      30_000,
      `the pushes of block ${height}`,
    )
    for (const push of pushes) expect(reply.seq).toBeLessThan(push.seq)
  }
  probe.close()
}, 120_000)

test('refusals over the WebSocket are the error objects /action gives for the same bodies', async () => {
  const s = signers[0]!
  const base = await nonceOf(rpc, s.address)
  const valid = s.sign(order(), base + 60, 'dev').params
  const withSig = (sig: Record<string, unknown>) => ({ ...valid, signature: { ...valid.signature, ...sig } })
  const place = (valid.action as { PlaceOrder: Record<string, unknown> }).PlaceOrder
  // A consumed nonce: its replay is refused alike on both paths.
  const used = s.sign(cancelOrder({ market_id: 1, order_id: 777_001 }), base, 'dev').params
  expect((await postHttp(node.url, used)).result.status).toBe('kept-reject')
  const cases: Record<string, unknown> = {
    'no action': undefined,
    'action not an object': [1],
    'schema: empty': {},
    'schema: unknown kind': { ...valid, action: { Nope: {} } },
    'schema: payload field': { ...valid, action: { PlaceOrder: { ...place, side: 'Up' } } },
    'schema: extra field': { ...valid, vaultAddress: '0x00' },
    'bad signature: v': withSig({ v: 29 }),
    'bad signature: high s': withSig({ s: '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140' }),
    'bad signature: altered action': { ...valid, action: { PlaceOrder: { ...place, price: '30001' } } },
    'unknown signer': new Signer(`0x${'11'.repeat(32)}`).sign(order(), 0, 'dev').params,
    'wrong network': s.sign(order(), base + 61, 'mainnet').params,
    'nonce replay': used,
    'nonce above the window': s.sign(order(), base + 500, 'dev').params,
  }
  const probe = await WsProbe.open(node.url)
  for (const [name, params] of Object.entries(cases)) {
    const http = await postHttp(node.url, params, name)
    const from = probe.frames.length
    probe.send(params === undefined ? { op: 'post', id: name } : { op: 'post', id: name, action: params })
    const ws = await probe.next((f) => f.op === 'post' && f.id === name, from, 30_000)
    expect({ name, error: ws.error, result: ws.result }).toEqual({ name, error: http.error, result: undefined })
    expect(http.error).toBeDefined()
    // The same frame with its keys in another order is read on the block thread, not handed whole
    // to an admission thread (posts.ts postText): the same refusal.
    const reordered = `${name} (id first)`
    const from2 = probe.frames.length
    probe.send(params === undefined ? { id: reordered, op: 'post' } : { id: reordered, action: params, op: 'post' })
    const ws2 = await probe.next((f) => f.op === 'post' && f.id === reordered, from2, 30_000)
    expect({ name, error: ws2.error }).toEqual({ name, error: http.error })
  }
  // Nothing was consumed but the one kept reject.
  expect(await nonceOf(rpc, s.address)).toBe(base + 1)
  probe.close()
}, 120_000)

test('a post frame without a valid id gets an error frame and admits nothing', async () => {
  const s = signers[1]!
  const base = await nonceOf(rpc, s.address)
  const probe = await WsProbe.open(node.url)
  const action = s.sign(cancelOrder({ market_id: 1, order_id: 777_002 }), base, 'dev').params
  const bad: unknown[] = [undefined, null, { a: 1 }, [1], true, 'x'.repeat(129)]
  for (const id of bad) {
    const from = probe.frames.length
    probe.send(id === undefined ? { op: 'post', action } : { op: 'post', id, action })
    const f = await probe.next((x) => x.seq === from + 1, from, 30_000)
    expect(f.op).toBe('error')
    expect(f.message).toContain('id')
  }
  // Blocks later the nonce is still unused.
  const h = (await rpc.query('getNonce', { address: s.address })).height
  await poll(async () => (await rpc.query('getNonce', { address: s.address })).height > h + 2 || undefined, 'three blocks')
  expect(await nonceOf(rpc, s.address)).toBe(base)
  expect(probe.frames.some((f) => f.op === 'post')).toBe(false)
  probe.close()
}, 60_000)

test('a frame that starts as a post but is not JSON, or not a post after all, is answered as any frame', async () => {
  const probe = await WsProbe.open(node.url)
  probe.send('{"op":"post","id":1,"action":')
  expect(await probe.next((f) => f.op === 'error', 0, 30_000)).toMatchObject({ seq: 1, message: 'invalid JSON' })
  // JSON.parse keeps the last of a repeated key: this frame is a subscribe.
  probe.send('{"op":"post","op":"subscribe","topics":["marks"]}')
  expect(await probe.next((f) => f.op === 'subscribed', 1, 30_000)).toMatchObject({ seq: 2, topics: ['marks'] })
  probe.send('{"op":"post","op":"nothing"}')
  expect((await probe.next((f) => f.op === 'error', 2, 30_000)).message).toContain('unknown op')
  expect(probe.frames.some((f) => f.op === 'post')).toBe(false)
  probe.close()
}, 60_000)

test('a post whose connection closes at once still goes into the chain', async () => {
  const s = signers[2]!
  const base = await nonceOf(rpc, s.address)
  const probe = await WsProbe.open(node.url)
  const signed = s.sign(cancelOrder({ market_id: 1, order_id: 777_003 }), base, 'dev')
  probe.send({ op: 'post', id: 1, action: signed.params })
  probe.close()
  const tx = await poll(async () => {
    try {
      return (await rpc.query<{ tx_hash: string; status: string } | null>('getTx', { tx_hash: signed.txHash })).data ?? undefined
    } catch {
      return undefined
    }
  }, 'the tx in the chain')
  expect(tx.status).toBe('kept-reject')
  // The node is fine: another connection posts.
  const again = await WsProbe.open(node.url)
  again.send({ op: 'post', id: 2, action: s.sign(cancelOrder({ market_id: 1, order_id: 777_004 }), base + 1, 'dev').params })
  expect((await again.next((f) => f.op === 'post', 0, 30_000)).result.status).toBe('kept-reject')
  again.close()
}, 60_000)

test('posts count against the per-IP and per-signer limits, and past 4 in flight get an error', async () => {
  const lrpc = new RpcClient(limited.url)
  const probe = await WsProbe.open(limited.url)
  // Over the in-flight limit: 10 posts at once from 10 signers; the block time is 200 ms.
  const bases = await Promise.all(signers.map((s) => nonceOf(lrpc, s.address)))
  for (let i = 0; i < 9; i++)
    probe.send({ op: 'post', id: `f${i}`, action: signers[i]!.sign(cancelOrder({ market_id: 1, order_id: 1 }), bases[i]!, 'dev').params })
  const first = await repliesOf(probe, 9, 60_000)
  const reasons = [...first.values()].map((f) => f.error?.data?.reason ?? f.result.status)
  expect(reasons.filter((r) => r === 'TOO_MANY_IN_FLIGHT').length).toBeGreaterThanOrEqual(1)
  expect(reasons.filter((r) => r === 'kept-reject').length).toBeGreaterThanOrEqual(1)
  expect(reasons.every((r) => r === 'TOO_MANY_IN_FLIGHT' || r === 'kept-reject')).toBe(true)
  expect([...first.values()].find((f) => f.error?.data?.reason === 'TOO_MANY_IN_FLIGHT')!.error.code).toBe(-32000)
  await Bun.sleep(1_100)
  // Per IP (30/s): 60 posts one after another, each sent once the previous one is answered.
  const s = signers[3]!
  const nonce = await nonceOf(lrpc, s.address)
  const seen: string[] = []
  for (let i = 0; i < 60; i++) {
    const from = probe.frames.length
    probe.send({ op: 'post', id: `ip${i}`, action: signers[i % 9]!.sign(cancelOrder({ market_id: 1, order_id: 2 }), 10_000, 'dev').params })
    const f = await probe.next((x) => x.op === 'post' && x.id === `ip${i}`, from, 30_000)
    seen.push(f.error?.data?.reason ?? 'result')
    if (f.error?.data?.reason === 'RATE_LIMITED') {
      expect(f.error.message).toContain('/action requests per second')
      break
    }
  }
  expect(seen).toContain('RATE_LIMITED')
  // The same budget as /action: right after, HTTP from this address is limited too.
  const http = await Promise.all(Array.from({ length: 10 }, () => postHttp(limited.url, {})))
  expect(http.map((r) => r.error.data.reason)).toContain('RATE_LIMITED')
  await Bun.sleep(1_100)
  // Per signer (20/s): 28 posts at once from one signer over 7 connections (4 in flight each),
  // under the per-IP 30.
  const conns = await Promise.all(Array.from({ length: 7 }, () => WsProbe.open(limited.url)))
  conns.forEach((c, ci) => {
    for (let k = 0; k < 4; k++)
      c.send({ op: 'post', id: k, action: s.sign(cancelOrder({ market_id: 1, order_id: 3 }), nonce + ci * 4 + k, 'dev').params })
  })
  const all = await until(
    () => {
      const r = conns.flatMap((c) => [...postReplies(c).values()])
      return r.length === 28 && r
    },
    60_000,
    '28 replies',
  )
  const signerLimited = all.find((f) => f.error?.data?.reason === 'RATE_LIMITED')
  expect(all.filter((f) => f.result?.status === 'kept-reject').length).toBeGreaterThanOrEqual(1)
  for (const c of conns) c.close()
  expect(signerLimited?.error.data.signer).toBe(s.address.toLowerCase())
  probe.close()
}, 120_000)

test('PerpdClient sends over a connected PerpdWsClient with the nonce manager as over HTTP', async () => {
  const ws = new PerpdWsClient({ url: node.url })
  await ws.connect()
  const client = new PerpdClient({ url: node.url, privateKey: DEV_KEYS[9]!, ws })
  // Prove the WebSocket carries them: HTTP /action is not used.
  ;(client.rpc as { action: unknown }).action = () => {
    throw new Error('HTTP /action used')
  }
  const start = await nonceOf(rpc, client.address)
  // 100 at once: more than the 64-nonce window, so the manager holds some back until replies come.
  const replies = await Promise.all(
    Array.from({ length: 100 }, (_, i) => client.send(cancelOrder({ market_id: 1, order_id: 800_000 + i }))),
  )
  expect(replies.every((r) => r.status === 'kept-reject')).toBe(true)
  expect(new Set(replies.map((r) => r.tx_hash)).size).toBe(100)
  expect(await nonceOf(rpc, client.address)).toBe(start + 100)
  // A refusal throws RpcCallError and gives the nonce back: the next action uses it.
  const err = await client.send({ PlaceOrder: { market_id: 1, side: 'Up' } }).catch((e: unknown) => e)
  expect(err).toBeInstanceOf(RpcCallError)
  expect((err as RpcCallError).reason).toBe('INVALID_PARAMS')
  const next = await client.send(cancelOrder({ market_id: 1, order_id: 1 }))
  expect(next.status).toBe('kept-reject')
  expect(await nonceOf(rpc, client.address)).toBe(start + 101)
  expect(ws.postsInFlight).toBe(0)
  // Closed: the client falls back to HTTP.
  ws.close()
  ;(client.rpc as { action: unknown }).action = RpcClient.prototype.action.bind(client.rpc)
  expect((await client.send(cancelOrder({ market_id: 1, order_id: 2 }))).status).toBe('kept-reject')
}, 120_000)
