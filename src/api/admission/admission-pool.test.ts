// The admission threads give what the inline path gives, and a thread that dies fails its requests
// (AdmissionUnavailable, HTTP 503 on the route) and is replaced, never leaving one hanging. A pool
// that admits on the calling thread while idle does so for the first bodies of a turn only, and
// never while a thread holds a body.
import { afterAll, expect, test } from 'bun:test'
import { DEV_KEYS } from '../../../test/support/node-process.ts'
import { batchModify, batchPlaceOrder, cancelOrder, placeOrder, registerAgent } from '../../client/actions.ts'
import { Signer } from '../../client/signer.ts'
import { actionIntake } from './action-intake.ts'
import { AdmissionPool, AdmissionUnavailable } from './admission-pool.ts'
import { postIntake } from './post-intake.ts'

/** Every body on a thread (--admission-inline 0), so these tests cover the threads. */
const pool = new AdmissionPool(2, 'dev', () => {}, 0)
/** Up to four bodies a turn on the calling thread while its one thread is idle. */
const mixed = new AdmissionPool(1, 'dev', () => {}, 4)
afterAll(() => {
  pool.stop()
  mixed.stop()
})
const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

const signer = new Signer(DEV_KEYS[1]!)
const body = (nonce: number, id: number | undefined = nonce) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'action',
    params: signer.sign(
      placeOrder({ market_id: 1, side: 'Bid', price: '30000.5', qty: '0.0010', tif: 'Gtc', reduce_only: false }),
      nonce,
      'dev',
    ).params,
  })

/** The /action body of any signed action. */
const bodyOf = (action: Record<string, unknown>, nonce: number) =>
  JSON.stringify({ jsonrpc: '2.0', id: nonce, method: 'action', params: signer.sign(action, nonce, 'dev').params })

test('a thread gives the inline intake, as structured clone carries it (the envelope is its own payload)', async () => {
  const texts = [
    body(0),
    body(1, undefined),
    '{bad',
    '[]',
    '{"jsonrpc":"2.0","id":1,"method":"nope"}',
    '{"jsonrpc":"2.0","id":1,"method":"action","params":{}}',
    body(2).replace(/"r":"0x[0-9a-f]+"/, '"r":"0x1"'),
    // Every busy kind's envelope shape, optional fields given and left out, and a user-signed kind.
    bodyOf(
      placeOrder({
        market_id: 2,
        side: 'Ask',
        price: '3500.25',
        qty: '1.5',
        tif: 'PostOnly',
        reduce_only: true,
        client_order_id: 'c-1',
        expires_at_ms: 1_900_000_000_000,
      }),
      10,
    ),
    bodyOf(
      batchPlaceOrder([
        { market_id: 1, side: 'Bid', price: '30000', qty: '0.01', tif: 'Ioc', reduce_only: false },
        { market_id: 1, side: 'Ask', price: '90000.5', qty: '0.02', tif: 'Gtc', reduce_only: false, client_order_id: 'b-2' },
      ]),
      11,
    ),
    bodyOf(
      batchModify([
        { market_id: 1, client_order_id: 'c-1', price: '30001' },
        { market_id: 1, order_id: 7, qty: '0.5' },
      ]),
      12,
    ),
    bodyOf(cancelOrder({ market_id: 1, client_order_id: 'c-1' }), 13),
    bodyOf(
      registerAgent({ network: 'dev', nonce: 14, agent: '0x00000000000000000000000000000000000000a1', role: 'Trader', name: 'bot' }),
      14,
    ),
  ]
  for (const text of texts) {
    const inline = actionIntake(text, 'dev')
    const threaded = await pool.intake(text)
    expect(threaded).toStrictEqual(inline)
  }
  const threaded = await pool.intake(body(3))
  if (threaded.kind !== 'action' || !threaded.prepared.ok || !threaded.prepared.recovered.ok) throw new Error(JSON.stringify(threaded))
  const input = threaded.prepared.recovered.input
  expect(input.payload).toBe(input as unknown as typeof input.payload)
  expect(input.action).toBe(threaded.prepared.action)
  expect(threaded.prepared.recovered.signer).toBe(signer.address.toLowerCase())
})

test('a WebSocket post frame: a thread reads it and gives the intake of the /action body it stands for', async () => {
  const params = JSON.parse(body(4)).params
  const frame = JSON.stringify({ op: 'post', id: 'p-4', action: params })
  const threaded = await pool.postIntake(frame)
  expect(threaded).toStrictEqual(postIntake(frame, 'dev'))
  expect(threaded).toStrictEqual({
    kind: 'post',
    id: 'p-4',
    intake: actionIntake(JSON.stringify({ jsonrpc: '2.0', id: 'p-4', method: 'action', params }), 'dev'),
  })
  if (threaded.kind !== 'post' || threaded.intake.kind !== 'action' || !threaded.intake.prepared.ok)
    throw new Error(JSON.stringify(threaded))
  expect(threaded.intake.prepared.nonce).toBe(4)
  // Without an action: the refusal of a body without params; a frame's own problems are no request.
  const bare = await pool.postIntake('{"op":"post","id":9}')
  expect(bare).toStrictEqual({ kind: 'post', id: 9, intake: actionIntake('{"jsonrpc":"2.0","id":9,"method":"action"}', 'dev') })
  expect(await pool.postIntake('{"op":"post","id":[1]}')).toMatchObject({ kind: 'frame-error' })
  expect(await pool.postIntake('{"op":"post",')).toStrictEqual({ kind: 'frame-error', message: 'invalid JSON' })
  expect(await pool.postIntake('{"op":"post","op":"subscribe"}')).toStrictEqual({ kind: 'not-post' })
  // Bodies and frames in one batch each get the answer of their own form.
  const mixedForms = await Promise.all([pool.intake(body(5)), pool.postIntake(frame), pool.intake(body(6))])
  expect(mixedForms).toStrictEqual([actionIntake(body(5), 'dev'), postIntake(frame, 'dev'), actionIntake(body(6), 'dev')])
})

test('many bodies sent in one turn of the event loop (one batch) each get the answer to their own body', async () => {
  const texts = Array.from({ length: 120 }, (_, i) => body(1_000 + i))
  texts.splice(7, 0, '{bad', body(5_000).replace(/"r":"0x[0-9a-f]+"/, '"r":"0x1"'))
  const threaded = await Promise.all(texts.map((t) => pool.intake(t)))
  expect(threaded).toEqual(texts.map((t) => actionIntake(t, 'dev')))
  expect(threaded.map((r) => (r.kind === 'action' && r.prepared.ok ? r.prepared.nonce : r.kind)).slice(5, 12)).toEqual([
    1_005,
    1_006,
    'reply',
    5_000,
    1_007,
    1_008,
    1_009,
  ])
})

test('a thread that dies fails the requests it held with AdmissionUnavailable, and is restarted', async () => {
  const texts = Array.from({ length: 200 }, (_, i) => body(i % 60))
  const all = texts.map((t) =>
    pool.intake(t).then(
      () => 'ok',
      (err) => (err instanceof AdmissionUnavailable ? 'unavailable' : `other: ${err}`),
    ),
  )
  pool.killThread(0)
  pool.killThread(1)
  const outcomes = await Promise.all(all)
  expect(outcomes.filter((o) => o !== 'ok' && o !== 'unavailable')).toEqual([])
  expect(outcomes).toContain('unavailable')
  // Both threads restart (after a pause, as they died young); meanwhile requests fail fast.
  const deadline = Date.now() + 30_000
  for (;;) {
    const r = await pool.intake(body(5)).then(
      () => 'ok',
      (err) => (err instanceof AdmissionUnavailable ? 'unavailable' : `other: ${err}`),
    )
    if (r === 'ok') break
    expect(r).toBe('unavailable')
    if (Date.now() > deadline) throw new Error('no admission thread came back')
    await Bun.sleep(50)
  }
  expect(pool.restarts).toBeGreaterThanOrEqual(1)
}, 60_000)

test("an idle pool admits a turn's first bodies on the calling thread and sends the rest to its thread, each with its own answer", async () => {
  expect(pool.inlineTotal).toBe(0)
  await nextTurn()
  const before = mixed.inlineTotal
  // A lone body: admitted here, answered as the inline intake.
  expect(await mixed.intake(body(6_000))).toStrictEqual(actionIntake(body(6_000), 'dev'))
  expect(mixed.inlineTotal).toBe(before + 1)
  await nextTurn()
  // Ten in one turn: four here, six on the thread; while those wait, the next turn's go there too.
  const texts = Array.from({ length: 10 }, (_, i) => body(6_100 + i))
  const burst = texts.map((t) => mixed.intake(t))
  expect(mixed.inlineTotal).toBe(before + 5)
  expect(mixed.inFlight).toBe(6)
  await nextTurn()
  expect(mixed.inFlight).toBeGreaterThan(0)
  const late = mixed.intake(body(6_200))
  expect(mixed.inlineTotal).toBe(before + 5)
  expect(await Promise.all(burst)).toEqual(texts.map((t) => actionIntake(t, 'dev')))
  expect(await late).toEqual(actionIntake(body(6_200), 'dev'))
  // Idle again: the next turn's first body is admitted here once more.
  await nextTurn()
  await mixed.intake(body(6_300))
  expect(mixed.inlineTotal).toBe(before + 6)
})
