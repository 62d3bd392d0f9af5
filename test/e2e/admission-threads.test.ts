// /action with admission threads (--admission-threads, src/api/admission): every refusal is the
// reply the inline path gives (--admission-threads 0) for the same body, concurrent actions from
// many signers are all admitted, and a node killed while the threads are busy keeps every action it
// answered with accepted or a kept reject, over HTTP or posted over the WebSocket (a block is
// durable before any reply).
import { afterAll, expect, test } from 'bun:test'
import { cancelOrder, placeOrder } from '../../src/client/actions.ts'
import { RpcClient } from '../../src/client/rpc-client.ts'
import { Signer } from '../../src/client/signer.ts'
import { PerpdWsClient } from '../../src/client/ws-client.ts'
import { DEV_KEYS, removeDir, startNode, tempDataDir } from '../support/node-process.ts'

const inline = await startNode({ extraArgs: ['--admission-threads', '0'] })
// Every body on a thread: by default an idle node admits a lone request on the block thread.
const threaded = await startNode({ extraArgs: ['--admission-threads', '2', '--admission-inline', '0'] })
afterAll(async () => {
  for (const n of [inline, threaded]) {
    await n.stop()
    removeDir(n.dataDir)
  }
})

const signers = DEV_KEYS.slice(1).map((k) => new Signer(k))
const order = (price = '30000.5') => placeOrder({ market_id: 1, side: 'Bid', price, qty: '0.0010', tif: 'Gtc', reduce_only: false })

async function post(url: string, body: string): Promise<{ status: number; text: string }> {
  const r = await fetch(`${url}/api/v1/action`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  return { status: r.status, text: await r.text() }
}

const request = (params: unknown, id: unknown = 7) => JSON.stringify({ jsonrpc: '2.0', id, method: 'action', params })
const notification = (params: unknown) => JSON.stringify({ jsonrpc: '2.0', method: 'action', params })

test('every refusal kind gets the same reply with admission threads as without', async () => {
  const s = signers[8]!
  const valid = s.sign(order(), 0, 'dev').params
  const withSig = (sig: Record<string, unknown>) => ({ ...valid, signature: { ...valid.signature, ...sig } })
  const stranger = new Signer(`0x${'11'.repeat(32)}`)
  const bodies: Record<string, string> = {
    'bad JSON': '{"jsonrpc":"2.0",',
    'not JSON at all': 'hello',
    'empty body': '',
    'a batch': '[]',
    'no object': '42',
    'jsonrpc missing': JSON.stringify({ id: 1, method: 'action', params: valid }),
    'another method': JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'getTx', params: {} }),
    'another method, notification': JSON.stringify({ jsonrpc: '2.0', method: 'getTx', params: {} }),
    'params not an object': JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'action', params: [1] }),
    'schema: no params': request({}),
    'schema: unknown kind': request({ ...valid, action: { Nope: {} } }),
    'schema: two kinds': request({ ...valid, action: { ...valid.action, CancelOrder: {} } }),
    'schema: payload field': request({
      ...valid,
      action: { PlaceOrder: { ...(valid.action as { PlaceOrder: object }).PlaceOrder, side: 'Up' } },
    }),
    'schema: lone surrogate': request({
      ...valid,
      action: { PlaceOrder: { ...(valid.action as { PlaceOrder: object }).PlaceOrder, client_order_id: 'a\ud800' } },
    }),
    'schema: nonce': request({ ...valid, nonce: -1 }),
    'precision, before a bad signature': request({
      ...s.sign(order('30000.123456789'), 0, 'dev').params,
      signature: { r: '0x1', s: '0x1', v: 27 },
    }),
    'bad signature: v': request(withSig({ v: 29 })),
    'bad signature: r not hex': request(withSig({ r: 'zz' })),
    'bad signature: high s': request(withSig({ s: '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140' })),
    'bad signature: recovers nothing': request(withSig({ r: '0x0' })),
    'bad signature: unknown signer': request(stranger.sign(order(), 0, 'dev').params),
    'bad signature: altered action': request({
      ...valid,
      action: { PlaceOrder: { ...(valid.action as { PlaceOrder: object }).PlaceOrder, price: '30001' } },
    }),
    'wrong network': request(s.sign(order(), 0, 'mainnet').params),
  }
  for (const [name, body] of Object.entries(bodies)) {
    const a = await post(inline.url, body)
    const b = await post(threaded.url, body)
    expect({ name, ...b }).toEqual({ name, ...a })
    expect(a.text).not.toContain('"result"')
  }
  // Nonce replay: the same signed action twice on each node (its state is the same for this signer).
  const first = request(s.sign(cancelOrder({ market_id: 1, order_id: 424242 }), 5, 'dev').params)
  const firstInline = await post(inline.url, first)
  const firstThreaded = await post(threaded.url, first)
  expect(firstInline.text).toContain('kept-reject')
  expect(firstThreaded.text).toContain('kept-reject')
  // Same hash on both: the same envelope.
  expect(JSON.parse(firstThreaded.text).result.tx_hash).toBe(JSON.parse(firstInline.text).result.tx_hash)
  const replayInline = await post(inline.url, first)
  const replayThreaded = await post(threaded.url, first)
  expect(replayThreaded).toEqual(replayInline)
  expect(replayThreaded.text).toContain('NONCE_REPLAY')
  // A notification is run and answered with 204 on both.
  const quiet = notification(s.sign(cancelOrder({ market_id: 1, order_id: 424243 }), 6, 'dev').params)
  const quietThreaded = await post(threaded.url, quiet)
  expect(quietThreaded).toEqual(await post(inline.url, quiet))
  expect(quietThreaded).toEqual({ status: 204, text: '' })
  // A refused notification is answered with nothing too.
  expect(await post(threaded.url, notification({}))).toEqual(await post(inline.url, notification({})))
}, 120_000)

test('300 concurrent valid actions from several signers are all accepted', async () => {
  const rpc = new RpcClient(threaded.url, 60_000)
  const group = signers.slice(0, 6)
  const nonces = await Promise.all(
    group.map(async (s) => (await rpc.query<{ nonce: number }>('getAccount', { address: s.address })).data.nonce),
  )
  const bodies = Array.from({ length: 300 }, (_, i) => {
    const k = i % group.length
    const n = nonces[k]! + Math.floor(i / group.length)
    return request(group[k]!.sign(order(String(20000 + i)), n, 'dev').params, i)
  })
  const replies = await Promise.all(bodies.map((b) => post(threaded.url, b)))
  const statuses = replies.map((r) => (r.status === 200 ? (JSON.parse(r.text).result?.status ?? r.text) : `${r.status} ${r.text}`))
  expect(statuses.filter((s) => s !== 'accepted')).toEqual([])
  const hashes = new Set(replies.map((r) => JSON.parse(r.text).result.tx_hash))
  expect(hashes.size).toBe(300)
}, 120_000)

test('SIGKILL while the threads are busy: every action answered accepted or kept-reject, over HTTP or posted over the WebSocket, is in the chain after a restart', async () => {
  const dataDir = tempDataDir()
  let node = await startNode({ dataDir, extraArgs: ['--admission-threads', '2'] })
  const answered: string[] = []
  const answeredOverWs: string[] = []
  let killed = false
  // Each signer sends its actions one after another (nonces in order), until the node dies: half
  // over HTTP, half as post frames on a WebSocket of their own (read by the admission threads).
  const stream = async (s: Signer, ws: PerpdWsClient | undefined) => {
    for (let n = 0; !killed; n++) {
      const params = s.sign(n % 2 === 0 ? order(String(21000 + n)) : cancelOrder({ market_id: 1, order_id: 900_000 + n }), n, 'dev').params
      try {
        const result =
          ws === undefined
            ? JSON.parse((await post(node.url, request(params, n))).text).result
            : await ws.post<{ status: string; tx_hash: string }>(params)
        const status = result?.status
        if (status !== 'accepted' && status !== 'kept-reject') throw new Error(`unexpected ${JSON.stringify(result)}`)
        answered.push(result.tx_hash)
        if (ws !== undefined) answeredOverWs.push(result.tx_hash)
      } catch (err) {
        if (!killed) throw err
      }
    }
  }
  const sockets = await Promise.all(
    signers.slice(0, 4).map(async () => {
      const ws = new PerpdWsClient({ url: node.url })
      await ws.connect()
      return ws
    }),
  )
  const streams = signers.slice(0, 8).map((s, i) => stream(s, sockets[i]))
  const until = Date.now() + 10_000
  while ((answered.length < 150 || answeredOverWs.length < 40) && Date.now() < until) await Bun.sleep(20)
  killed = true
  await node.stop('SIGKILL')
  await Promise.all(streams)
  for (const ws of sockets) ws.close()
  const got = [...answered]
  expect(got.length).toBeGreaterThan(0)
  expect(answeredOverWs.length).toBeGreaterThan(0)
  node = await startNode({ dataDir, extraArgs: ['--admission-threads', '2'] })
  try {
    const rpc = new RpcClient(node.url, 60_000)
    const missing: string[] = []
    for (let i = 0; i < got.length; i += 20) {
      const replies = await rpc.batch(got.slice(i, i + 20).map((tx_hash) => ({ method: 'getTx', params: { tx_hash } })))
      replies.forEach((r, j) => {
        if (!('result' in r) || (r.result.data as { tx_hash?: string }).tx_hash !== got[i + j])
          missing.push(`${got[i + j]}: ${JSON.stringify(r).slice(0, 200)}`)
      })
    }
    expect(missing).toEqual([])
  } finally {
    await node.stop()
    removeDir(dataDir)
  }
}, 180_000)
