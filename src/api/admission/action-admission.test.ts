// ActionAdmission's two ways of answering, on a real node: admit() resolves with the reply object
// once the block commits, admitWith() calls back inside the commit; a refusal is answered at
// once; and a failure of the node's own checks (a bug) reaches admit()'s rejection and
// admitWith()'s `failed`, once, never both an answer and a failure. A WebSocket post frame's text
// (admitPostWith) gets the same answers with its id, also when no admission thread runs.
import { afterAll, expect, test } from 'bun:test'
import { manualDevNode } from '../../../test/support/manual-node.ts'
import { DEV_KEYS } from '../../../test/support/node-process.ts'
import { Signer } from '../../client/signer.ts'
import type { ChainNode } from '../../node/chain-node.ts'
import { ActionAdmission, type AdmissionOutcome, actionReplyJson, type PostAdmission } from './action-admission.ts'
import { AdmissionPool } from './admission-pool.ts'

const manual = manualDevNode('perpd-action-admission-')
const node = manual.node
afterAll(() => manual.close())
const admission = new ActionAdmission(node)
const signer = new Signer(DEV_KEYS[3]!)
const body = (nonce: number, id: number | string = nonce) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'action', params: signer.sign({ Noop: {} }, nonce, 'dev').params })
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

test('admit and admitWith answer an action once its block commits, with the same reply text', async () => {
  const viaPromise = admission.admit(body(1))
  let viaCallback: AdmissionOutcome | undefined
  admission.admitWith(
    body(2),
    (o) => {
      viaCallback = o
    },
    (err) => {
      throw err
    },
  )
  await settle()
  expect(viaCallback).toBeUndefined()
  node.produceBlock()
  const a = await viaPromise
  expect(viaCallback?.kind).toBe('reply')
  if (a.kind !== 'reply' || viaCallback?.kind !== 'reply') throw new Error('no reply')
  expect(a.body.result).toMatchObject({ status: 'accepted', height: node.state.height, envelope_idx: 0 })
  expect(viaCallback.body.result).toMatchObject({ status: 'accepted', height: node.state.height, envelope_idx: 1 })
  // The reply text is JSON.stringify of the reply object, built from the kept result JSON.
  expect(actionReplyJson(a.body)).toBe(JSON.stringify(a.body))
})

test('a refusal is answered without a block', async () => {
  const outcome = await new Promise<AdmissionOutcome>((resolve, reject) => admission.admitWith(body(1, 'again'), resolve, reject))
  if (outcome.kind !== 'reply') throw new Error('no reply')
  expect(outcome.body).toMatchObject({ id: 'again', error: { data: { reason: 'NONCE_REPLAY' } } })
  expect(actionReplyJson(outcome.body)).toBe(JSON.stringify(outcome.body))
})

test("a failure in the node's checks goes to admit's rejection and to admitWith's failed, once", async () => {
  const broken = Object.create(node) as ChainNode
  broken.submitWith = () => {
    throw new Error('a bug in the checks')
  }
  const brokenAdmission = new ActionAdmission(broken)
  await expect(brokenAdmission.admit(body(10))).rejects.toThrow('a bug in the checks')
  const answers: string[] = []
  brokenAdmission.admitWith(
    body(11),
    () => answers.push('done'),
    (err) => answers.push(`failed: ${(err as Error).message}`),
  )
  await settle()
  await settle()
  expect(answers).toEqual(['failed: a bug in the checks'])
})

test('with an admission thread, actions sent in one turn enter the block in the order they came, those admitted here and those on the thread alike', async () => {
  // One thread: with several, the threads' answers interleave (envelopes enter the mempool in the
  // order their answers come back, admission-pool.ts); what is admitted here comes first either way.
  const pool = new AdmissionPool(1, 'dev', () => {}, 3)
  try {
    const pooled = new ActionAdmission(node, 0, pool)
    await new Promise((resolve) => setImmediate(resolve))
    const nonces = Array.from({ length: 12 }, (_, i) => 20 + i)
    const replies = nonces.map((n) => pooled.admit(body(n)))
    expect(pool.inlineTotal).toBe(3)
    // Every answer in hand (the nine on the thread too) before the block.
    while (pool.inFlight > 0) await settle()
    await settle()
    node.produceBlock()
    const outcomes = await Promise.all(replies)
    const places = outcomes.map((o) => (o.kind === 'reply' ? (o.body.result as { envelope_idx: number }).envelope_idx : -1))
    expect(places).toEqual(nonces.map((_, i) => i))
  } finally {
    pool.stop()
  }
})

test('a post frame: answered with its id once its block commits, refused with its id, and with its id when no admission thread runs', async () => {
  const frame = (nonce: number, id: number | string) =>
    JSON.stringify({ op: 'post', id, action: signer.sign({ Noop: {} }, nonce, 'dev').params })
  const post = (a: ActionAdmission, text: string) => new Promise<PostAdmission>((resolve, reject) => a.admitPostWith(text, resolve, reject))
  const accepted = post(admission, frame(40, 'p-40'))
  await settle()
  node.produceBlock()
  expect(await accepted).toMatchObject({
    kind: 'post',
    id: 'p-40',
    outcome: { kind: 'reply', body: { id: 'p-40', result: { status: 'accepted', height: node.state.height } } },
  })
  expect(await post(admission, frame(40, 7))).toMatchObject({
    kind: 'post',
    id: 7,
    outcome: { body: { id: 7, error: { data: { reason: 'NONCE_REPLAY' } } } },
  })
  expect(await post(admission, '{"op":"post","id":{}}')).toMatchObject({ kind: 'frame-error' })
  expect(await post(admission, '{"op":"post","op":"subscribe"}')).toEqual({ kind: 'not-post' })
  // A stopped pool: the frame is read here for its id; nothing admitted, the client sends it again.
  const pool = new AdmissionPool(1, 'dev', () => {}, 0)
  pool.stop()
  const stopped = new ActionAdmission(node, 0, pool)
  expect(await post(stopped, frame(41, 'p-41'))).toMatchObject({
    kind: 'post',
    id: 'p-41',
    outcome: { kind: 'reply', status: 503, body: { id: 'p-41', error: { data: { reason: 'ADMISSION_UNAVAILABLE' } } } },
  })
  expect(await post(stopped, '{"op":"post",')).toEqual({ kind: 'frame-error', message: 'invalid JSON' })
})
