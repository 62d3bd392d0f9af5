// A bounded, seeded fuzz of every input surface of one real node (docs/errors.md, docs/limits.md):
// a few thousand generated bad or odd inputs to /query, /action, the history, candle, hot-read and
// alias REST routes and the WebSocket. Every reply must have the status and shape the docs give
// that kind of error, none may hang, and at the end the node must be alive, still producing blocks,
// with exactly the effects of the valid actions sent and no uncaught error in its output.
// Replay a failure with FUZZ_SEED=<seed printed> node_modules/.bin/bun test test/e2e/fuzz-input.test.ts
import { expect, test } from 'bun:test'
import { REQUEST_BODY_MAX_BYTES } from '../../src/api/request-body.ts'
import { QUERY_BATCH_MAX, queryMethodTable } from '../../src/api/routes/query-routes.ts'
import { cancelOrder, noop, placeOrder, transferFunds } from '../../src/client/actions.ts'
import { Signer } from '../../src/client/signer.ts'
import type { ActionKindSpec } from '../../src/wire/action-kind.ts'
import { ACTION_KINDS } from '../../src/wire/actions.ts'
import { RPC } from '../../src/wire/rpc-errors.ts'
import { compileValidator } from '../../src/wire/validate.ts'
import { startDevNodeForFile } from '../support/dev-node.ts'
import {
  deepNesting,
  Findings,
  fuzzSeed,
  type HttpReply,
  http,
  inParallel,
  mutateObject,
  nudge,
  oddValue,
  postText,
  Rng,
} from '../support/fuzz-kit.ts'
import { DEV_KEYS } from '../support/node-process.ts'
import { hangUpMidBody } from '../support/raw-http.ts'

const seed = fuzzSeed(20_261_122)
console.log(`fuzz-input: FUZZ_SEED=${seed}`)

const { node, rpc } = await startDevNodeForFile({ blockTimeMs: 50 })
const QUERY_URL = `${node.url}/api/v1/query`
const ACTION_URL = `${node.url}/api/v1/action`
const NETWORK = 'dev'
/** secp256k1 group order: s and N - s are the two forms of one signature. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

type Body = Record<string, any>

/** The checks every JSON-RPC reply passes: HTTP 200 (or the given status), JSON, a 2.0 object with result xor error. */
function rpcReplyProblem(r: HttpReply, allowStatus: readonly number[] = [200]): string | undefined {
  if (r.failure !== undefined) return `no reply: ${r.failure}`
  if (!allowStatus.includes(r.status)) return `HTTP ${r.status}`
  if (!r.contentType.startsWith('application/json')) return `content-type ${r.contentType}`
  if (!r.jsonOk) return 'body is not JSON'
  return undefined
}

function itemProblem(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'reply item is not an object'
  const o = item as Body
  if (o.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"'
  if ('result' in o === 'error' in o) return 'needs exactly one of result and error'
  if ('error' in o) {
    const e = o.error as Body
    if (typeof e !== 'object' || e === null || !Number.isInteger(e.code) || typeof e.message !== 'string' || e.message === '')
      return 'error object malformed'
    if (e.code === RPC.internalError) return 'internal error (-32603)'
  }
  return undefined
}

/** A body over REQUEST_BODY_MAX_BYTES: HTTP 200 with the -32600 REQUEST_TOO_LARGE error, id null. */
function tooLargeProblem(r: HttpReply): string | undefined {
  const bad = rpcReplyProblem(r) ?? itemProblem(r.json)
  if (bad !== undefined) return bad
  const o = r.json as Body
  return o.error?.code === RPC.invalidRequest && o.error?.data?.reason === 'REQUEST_TOO_LARGE' && o.id === null
    ? undefined
    : 'expected -32600 REQUEST_TOO_LARGE'
}

/** The id a reply must echo: the request's when it is a string or finite number, else null. */
const echoedId = (req: unknown) => {
  const id = typeof req === 'object' && req !== null && !Array.isArray(req) ? (req as Body).id : undefined
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null
}

// ---------------------------------------------------------------------------------------------
// POST /api/v1/query

/** What one /query request object must get back. */
type QueryExpect = { code: number } | { method: string }

function expectForQuery(req: unknown): QueryExpect {
  if (typeof req !== 'object' || req === null || Array.isArray(req)) return { code: RPC.invalidRequest }
  const r = req as Body
  if (r.jsonrpc !== '2.0' || typeof r.method !== 'string') return { code: RPC.invalidRequest }
  if (r.id !== undefined && r.id !== null && typeof r.id !== 'string' && typeof r.id !== 'number') return { code: RPC.invalidRequest }
  if (r.params !== undefined && (typeof r.params !== 'object' || r.params === null || Array.isArray(r.params)))
    return { code: RPC.invalidParams }
  if (!queryMethodTable.has(r.method)) return { code: RPC.methodNotFound }
  return { method: r.method }
}

/** Checks one reply object against its request; a method call may succeed or fail with -32602. */
function queryItemProblem(req: unknown, item: unknown): string | undefined {
  const bad = itemProblem(item)
  if (bad !== undefined) return bad
  const o = item as Body
  if (o.id !== echoedId(req)) return `id ${JSON.stringify(o.id)} does not echo the request's`
  const want = expectForQuery(req)
  if ('code' in want) return o.error?.code === want.code ? undefined : `expected error ${want.code}`
  if ('error' in o) return o.error.code === RPC.invalidParams ? undefined : `expected a result or -32602, got ${o.error.code}`
  const res = o.result as Body
  if (
    typeof res !== 'object' ||
    res === null ||
    !Number.isInteger(res.height) ||
    !Number.isInteger(res.chain_height) ||
    typeof res.stale !== 'boolean' ||
    !('data' in res)
  )
    return 'result wrapper malformed'
  const v = queryMethodTable.get(want.method)!.resultValidator.validate(res.data, 'data')
  return v.ok ? undefined : `data breaks the result schema at ${v.field}: ${v.message}`
}

/** Either the whole reply (array or object) is right for the body, or the problem. */
function queryReplyProblem(body: string, r: HttpReply): string | undefined {
  if (Buffer.byteLength(body) > REQUEST_BODY_MAX_BYTES) return tooLargeProblem(r)
  let req: unknown
  try {
    req = JSON.parse(body)
  } catch {
    const bad = rpcReplyProblem(r) ?? itemProblem(r.json)
    if (bad !== undefined) return bad
    const o = r.json as Body
    return o.error?.code === RPC.parseError && o.id === null ? undefined : 'expected -32700 with id null'
  }
  // docs/errors.md#http-statuses: a paged history read with offset above 1000 answers HTTP 400,
  // with the JSON-RPC error.
  if (r.status === 400) {
    const bad = rpcReplyProblem(r, [400]) ?? itemProblem(r.json)
    return (
      bad ??
      ((r.json as Body).error?.data?.reason === 'OFFSET_TOO_DEEP' ? undefined : 'HTTP 400 for something other than an offset above 1000')
    )
  }
  const bad = rpcReplyProblem(r)
  if (bad !== undefined) return bad
  if (!Array.isArray(req)) return queryItemProblem(req, r.json)
  if (req.length === 0 || req.length > QUERY_BATCH_MAX) {
    return itemProblem(r.json) ?? ((r.json as Body).error?.code === RPC.invalidRequest ? undefined : 'expected -32600 for the whole batch')
  }
  if (!Array.isArray(r.json) || r.json.length !== req.length) return `expected ${req.length} replies in order`
  for (let i = 0; i < req.length; i++) {
    const p = queryItemProblem(req[i], r.json[i])
    if (p !== undefined) return `item ${i}: ${p}`
  }
  return undefined
}

const METHODS = [...queryMethodTable.values()]
const ADDRESSES = DEV_KEYS.map((k) => new Signer(k).address)

/** A request object: a method of the table with its example mutated, sometimes with a broken envelope. */
function queryRequest(rng: Rng, id: number): unknown {
  const m = rng.pick(METHODS)
  const example = { ...(m.example ?? {}) }
  if (rng.chance(0.15) && 'address' in example) example.address = rng.pick(ADDRESSES)
  let params: unknown = rng.chance(0.85) ? mutateObject(rng, example) : rng.chance(0.5) ? example : oddValue(rng)
  if (rng.chance(0.05)) params = undefined
  const req: Body = { jsonrpc: '2.0', id: rng.chance(0.1) ? oddValue(rng, 1) : id, method: m.name, params }
  if (rng.chance(0.08)) {
    switch (rng.int(6)) {
      case 0:
        req.jsonrpc = rng.pick(['1.0', 2, null, '2.0 '])
        break
      case 1:
        req.method = rng.pick([
          m.name.toLowerCase(),
          `${m.name} `,
          'getNothing',
          '',
          5,
          null,
          'rpc.discover.x',
          'constructor',
          '__proto__',
          'toString',
        ])
        break
      case 2:
        delete req.method
        break
      case 3:
        req.extra = oddValue(rng)
        break
      case 4:
        delete req.jsonrpc
        break
      default:
        req.id = rng.pick([{}, [], true, 1.5, -1, 'x'.repeat(300)])
    }
  }
  return req
}

function queryBody(rng: Rng, i: number): string {
  const roll = rng.int(100)
  if (roll < 70) return JSON.stringify(queryRequest(rng, i))
  if (roll < 85) {
    const n = rng.chance(0.15) ? QUERY_BATCH_MAX + 1 + rng.int(10) : rng.chance(0.05) ? 0 : 1 + rng.int(QUERY_BATCH_MAX)
    return JSON.stringify(Array.from({ length: n }, (_, k) => (rng.chance(0.1) ? oddValue(rng, 1) : queryRequest(rng, i * 100 + k))))
  }
  const valid = JSON.stringify(queryRequest(rng, i))
  return rng.pick([
    valid.slice(0, rng.int(valid.length)),
    `${valid}}`,
    `${valid} trailing`,
    '',
    ' ',
    'null',
    '1',
    '"str"',
    'true',
    '{}',
    '[]',
    '[[]]',
    '{"jsonrpc":"2.0"',
    'NaN',
    '{"jsonrpc":"2.0","id":1,"method":"getHealth","params":{},}',
    "{'jsonrpc':'2.0'}",
    rng.text(1 + rng.int(200)),
    deepNesting(1 + rng.int(20_000)),
    `{"jsonrpc":"2.0","id":1,"method":"getAccount","params":{"address":${deepNesting(5_000)}}}`,
  ])
}

test('POST /api/v1/query: junk bodies, odd batches and mutated params of every method', async () => {
  const rng = new Rng(seed ^ 0x51)
  const findings = new Findings(seed)
  const bodies = Array.from({ length: 3_000 }, (_, i) => queryBody(rng, i))
  // Every method at least once with its own example, which must succeed.
  for (const m of METHODS) bodies.push(JSON.stringify({ jsonrpc: '2.0', id: m.name, method: m.name, params: m.example ?? {} }))
  await inParallel(bodies, 12, async (body) => {
    const r = await postText(QUERY_URL, body)
    const problem = queryReplyProblem(body, r)
    findings.check(problem === undefined, `query: ${problem}`, body, r.failure ?? `${r.status} ${r.text}`)
  })
  findings.assertNone('/query')
}, 60_000)

// ---------------------------------------------------------------------------------------------
// POST /api/v1/action

/** Keys of the fuzz: #3 keeps an exact ledger, #4 sends re-signed mutated actions, #5 receives transfers. */
const ledger = new Signer(DEV_KEYS[3])
const chaos = new Signer(DEV_KEYS[4])
const payee = new Signer(DEV_KEYS[5])
/** Micro-units moved from #3 to #5 by accepted transfers, and every nonce each fuzz key consumed. */
let transferredMicros = 0n
const consumed = new Map<string, Set<number>>([
  [ledger.address, new Set()],
  [chaos.address, new Set()],
])
/** tx hashes of every action that reached a block, with its status, to find again at the end. */
const landed: { txHash: string; status: string }[] = []
const TRANSFER_AMOUNT = '1.5'
const TRANSFER_MICROS = 1_500_000n

const payloadValidators = new Map(ACTION_KINDS.map((k) => [k.name, compileValidator(k.schema)]))

/** An example payload of a kind, with a user-signed kind's network and nonce set for this envelope. */
function examplePayload(kind: ActionKindSpec, nonce: number): Body {
  const p: Body = structuredClone(kind.example)
  if (kind.auth === 'user_signed_master') {
    p.network = NETWORK
    p.nonce = nonce
    p.signature_chain_id = '0x539'
  }
  return p
}

/** Signs; an unsignable user-signed payload (junk chain id) gets a well-formed but meaningless signature. */
function sign(signer: Signer, action: Body, nonce: number): Body {
  try {
    return signer.sign(action, nonce, NETWORK).params
  } catch {
    return { action, nonce, signature: { r: '0x1', s: '0x1', v: 27 } }
  }
}

const actionBody = (params: unknown, id: unknown = 1) => JSON.stringify({ jsonrpc: '2.0', id, method: 'action', params })

/** Sends an /action body; returns the parsed reply or a problem. */
async function sendAction(body: string): Promise<{ reply?: Body; problem?: string; raw: HttpReply }> {
  const raw = await postText(ACTION_URL, body)
  const problem = rpcReplyProblem(raw) ?? itemProblem(raw.json)
  return problem === undefined ? { reply: raw.json as Body, raw } : { problem, raw }
}

/** Records the nonce of a reply that reached a block. */
function noteLanded(signer: string, nonce: number, reply: Body): void {
  if (!('result' in reply)) return
  consumed.get(signer)!.add(nonce)
  landed.push({ txHash: reply.result.tx_hash, status: reply.result.status })
}

async function lowestNonce(address: string): Promise<number> {
  return (await rpc.query<{ nonce: number }>('getNonce', { address })).data.nonce
}

/** A signature-level or payload-level change after signing; the result must still be refused. */
function tamper(rng: Rng, params: Body): Body | undefined {
  const t: Body = structuredClone(params)
  const sig = t.signature as Body
  const flip = (h: string) => {
    const i = 2 + rng.int(h.length - 2)
    const c = h[i]!.toLowerCase()
    return h.slice(0, i) + '0123456789abcdef'[('0123456789abcdef'.indexOf(c) + 1 + rng.int(15)) % 16] + h.slice(i + 1)
  }
  const kindName = Object.keys(t.action)[0]!
  switch (rng.int(12)) {
    case 0:
      sig.r = flip(sig.r)
      break
    case 1:
      sig.s = flip(sig.s)
      break
    case 2:
      sig.s = `0x${(N - BigInt(sig.s)).toString(16)}`
      break // high-s form of the same signature
    case 3:
      sig.v = sig.v === 27 ? rng.pick([28, 1]) : rng.pick([27, 0])
      break
    case 4:
      sig.v = rng.pick([2, 26, 29, -1, 27.5, '27', null, 255])
      break
    case 5:
      sig[rng.pick(['r', 's'])] = rng.pick([
        '',
        '0x',
        '0x0',
        sig.r.slice(2),
        `${sig.s}0`,
        `0x${'f'.repeat(65)}`,
        `0x${N.toString(16)}`,
        `0X${sig.r.slice(2)}`,
        12345,
        null,
      ])
      break
    case 6:
      t.nonce = rng.pick([t.nonce + 1, t.nonce + 64, t.nonce + 100_000, -1, 1.5, 2 ** 53, String(t.nonce), null])
      break
    case 7:
      delete t[rng.pick(['action', 'nonce', 'signature'])]
      break
    case 8:
      t[rng.pick(['extra', 'id', 'signer'])] = oddValue(rng)
      break
    case 9: {
      const other = rng.pick(ACTION_KINDS).name
      if (other === kindName) return undefined
      t.action = { [other]: t.action[kindName] }
      break
    }
    case 10:
      t.action[rng.pick(['Noop', 'PlaceOrder', 'Bogus', 'placeOrder'])] = {}
      break
    default: {
      const payload = t.action[kindName] as Body
      const before = JSON.stringify(payload)
      const keys = Object.keys(payload)
      if (keys.length === 0 || rng.chance(0.3)) t.action[kindName] = mutateObject(rng, payload)
      else {
        const k = rng.pick(keys)
        payload[k] = nudge(rng, payload[k])
      }
      if (JSON.stringify(t.action[kindName]) === before) return undefined
    }
  }
  // A change that leaves the request as it was (Noop renamed Noop) is no tampering.
  return JSON.stringify(t) === JSON.stringify(params) ? undefined : t
}

const REFUSAL_CODES: readonly number[] = [RPC.invalidParams, RPC.badSignature, RPC.nonceReplay, RPC.unauthorized]

test('POST /api/v1/action: tampered, replayed, mis-nonced, mis-typed and oversized actions are refused; valid ones land once', async () => {
  const rng = new Rng(seed ^ 0xac)
  const findings = new Findings(seed)
  const expectRefused = (
    body: string,
    got: Awaited<ReturnType<typeof sendAction>>,
    codes: readonly number[],
    what: string,
    extra?: (e: Body) => string | undefined,
  ) => {
    const e = got.reply?.error as Body | undefined
    const problem =
      Buffer.byteLength(body) > REQUEST_BODY_MAX_BYTES
        ? tooLargeProblem(got.raw)
        : (got.problem ??
          (e === undefined
            ? 'was not refused'
            : !codes.includes(e.code)
              ? `code ${e.code}, expected one of ${codes.join(', ')}`
              : extra?.(e)))
    findings.check(problem === undefined, `action ${what}: ${problem}`, body, got.raw.failure ?? `${got.raw.status} ${got.raw.text}`)
  }

  // Rounds: one valid ledger action (awaited, it must land), its replay, then a parallel volley of
  // tampered and re-signed invalid actions around the ledger key's live nonce window.
  let orderToCancel: number | undefined
  for (let round = 0; round < 21; round++) {
    const nonce = await lowestNonce(ledger.address)
    const action =
      orderToCancel !== undefined
        ? cancelOrder({ market_id: 1, order_id: orderToCancel })
        : round % 3 === 0
          ? transferFunds({ network: NETWORK, nonce, destination: payee.address, amount: TRANSFER_AMOUNT })
          : round % 3 === 1
            ? placeOrder({ market_id: 1, side: 'Bid', price: '1000', qty: '0.01', tif: 'Gtc', reduce_only: false })
            : noop()
    orderToCancel = undefined
    const params = ledger.sign(action, nonce, NETWORK).params
    const body = actionBody(params, round)
    const got = await sendAction(body)
    findings.check(got.reply?.result?.status === 'accepted', 'a valid ledger action must be accepted', body, got.raw.text)
    if (got.reply !== undefined) noteLanded(ledger.address, nonce, got.reply)
    if (got.reply?.result?.status === 'accepted') {
      if ('TransferFunds' in action) transferredMicros += TRANSFER_MICROS
      const placed = (got.reply.result.events as Body[]).find((e) => e.sub_kind === 'OrderAccepted')
      if (placed !== undefined) orderToCancel = placed.body.order_id as number
    }
    // The same signed action again, and a nonce past the window: NONCE_REPLAY, nothing lands.
    expectRefused(body, await sendAction(body), [RPC.nonceReplay], 'replay', (e) =>
      e.data?.reason === 'NONCE_REPLAY' ? undefined : 'reason is not NONCE_REPLAY',
    )
    const live = await lowestNonce(ledger.address)
    const far = rng.pick([live + 64, live + 64 + rng.int(10_000), Number.MAX_SAFE_INTEGER])
    const farBody = actionBody(ledger.sign(noop(), far, NETWORK).params)
    expectRefused(farBody, await sendAction(farBody), [RPC.nonceReplay], 'nonce outside the window')

    const volley: { body: string; codes: readonly number[]; what: string; extra?: (e: Body) => string | undefined }[] = []
    for (let i = 0; i < 60; i++) {
      const kind = rng.pick(ACTION_KINDS)
      const n = live + rng.int(64)
      const roll = rng.int(10)
      if (roll < 5) {
        const t = tamper(rng, ledger.sign({ [kind.name]: examplePayload(kind, n) }, n, NETWORK).params)
        if (t !== undefined) volley.push({ body: actionBody(t, i), codes: REFUSAL_CODES, what: `tampered ${kind.name}` })
      } else if (roll < 8) {
        // Re-signed after mutation: when the payload breaks its schema it is -32602, whatever else.
        const payload = mutateObject(rng, examplePayload(kind, n))
        if (payloadValidators.get(kind.name)!.check(payload)) continue
        volley.push({
          body: actionBody(sign(ledger, { [kind.name]: payload }, n), i),
          codes: [RPC.invalidParams],
          what: `re-signed invalid ${kind.name}`,
        })
      } else if (roll < 9) {
        // A correctly signed action of a key the chain does not know names the recovered address.
        const stranger = new Signer(`0x${rng.hex(62)}01`)
        const body = actionBody(stranger.sign({ Noop: {} }, rng.int(64), NETWORK).params, i)
        volley.push({
          body,
          codes: [RPC.badSignature],
          what: 'unknown signer',
          extra: (e) => (e.data?.recovered_address === stranger.address ? undefined : 'does not name the recovered address'),
        })
      } else {
        // Broken envelopes: not an object, wrong jsonrpc or method, a batch, params of the wrong type.
        const good = ledger.sign({ Noop: {} }, n, NETWORK).params
        const [body, code] = rng.pick<[string, number]>([
          [JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'action', params: good }]), RPC.invalidRequest],
          [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'query', params: good }), RPC.methodNotFound],
          [JSON.stringify({ jsonrpc: '1.0', id: 1, method: 'action', params: good }), RPC.invalidRequest],
          [JSON.stringify({ jsonrpc: '2.0', id: {}, method: 'action', params: good }), RPC.invalidRequest],
          [actionBody(rng.pick([null, [], 'x', 5, [good]])), RPC.invalidParams],
          [actionBody({ ...good, action: oddValue(rng, 1) }), RPC.invalidParams],
          [actionBody({ action: {}, nonce: n, signature: good.signature }), RPC.invalidParams],
          [actionBody(good).slice(0, 20 + rng.int(100)), RPC.parseError],
          [JSON.stringify(rng.pick([null, 1, 'action', true])), RPC.invalidRequest],
          [
            `{"jsonrpc":"2.0","id":1,"method":"action","params":{"action":{"Noop":${deepNesting(1 + rng.int(20_000))}},"nonce":${n},"signature":${JSON.stringify(good.signature)}}}`,
            RPC.invalidParams,
          ],
        ])
        volley.push({ body, codes: [code], what: 'broken envelope' })
      }
    }
    await inParallel(volley, 12, async (c) => expectRefused(c.body, await sendAction(c.body), c.codes, c.what, c.extra))
  }

  // Bodies past REQUEST_BODY_MAX_BYTES, with a Content-Length and streamed: a JSON-RPC -32600, HTTP 200.
  const oversized = (bytes: number) => actionBody({ ...ledger.sign(noop(), 0, NETWORK).params, pad: 'x'.repeat(bytes) })
  for (const bytes of [REQUEST_BODY_MAX_BYTES + 1, REQUEST_BODY_MAX_BYTES * 2, 4 * 1024 * 1024]) {
    for (const url of [ACTION_URL, QUERY_URL]) {
      const body = oversized(bytes)
      for (const streamed of [false, true]) {
        const sent = streamed
          ? new ReadableStream<Uint8Array>({
              start(c) {
                c.enqueue(new TextEncoder().encode(body))
                c.close()
              },
            })
          : body
        const raw = await postText(url, sent)
        const problem = tooLargeProblem(raw)
        findings.check(
          problem === undefined,
          `oversized body on ${url.slice(url.lastIndexOf('/'))}${streamed ? ' (streamed)' : ''}: ${problem}`,
          `${bytes} bytes`,
          raw.failure ?? `${raw.status} ${raw.text.slice(0, 300)}`,
        )
      }
    }
  }

  // Re-signed mutations by the chaos key that keep their schema: any outcome but a crash, and every
  // nonce that lands is counted. Refused nonces go back to the pool.
  const free: number[] = []
  let fresh = await lowestNonce(chaos.address)
  while (free.length < 16) free.push(fresh++)
  const traderKinds = ACTION_KINDS.filter((k) => k.role === 'Trader' || k.auth === 'user_signed_master')
  const chaosCases = Array.from({ length: 240 }, () => rng.pick(traderKinds))
  await inParallel(chaosCases, 8, async (kind) => {
    free.sort((a, b) => a - b)
    const n = free.shift()!
    let payload = examplePayload(kind, n)
    for (let tries = 0; tries < 20; tries++) {
      const m = mutateObject(rng, examplePayload(kind, n))
      if (kind.auth === 'user_signed_master') Object.assign(m, { network: NETWORK, nonce: n, signature_chain_id: '0x539' })
      if (payloadValidators.get(kind.name)!.check(m)) {
        payload = m
        break
      }
    }
    const body = actionBody(sign(chaos, { [kind.name]: payload }, n))
    const got = await sendAction(body)
    findings.check(got.problem === undefined, `chaos ${kind.name}: ${got.problem}`, body, got.raw.failure ?? got.raw.text)
    if (got.reply !== undefined && 'result' in got.reply) {
      noteLanded(chaos.address, n, got.reply)
      free.push(fresh++)
    } else free.push(n)
  })
  const landedBy = (status: string) => landed.filter((l) => l.status === status).length
  console.log(
    `fuzz-input /action: ${landedBy('accepted')} accepted and ${landedBy('kept-reject')} kept-reject of ${consumed.get(ledger.address)!.size} ledger and ${consumed.get(chaos.address)!.size} chaos nonces`,
  )
  findings.assertNone('/action')
}, 60_000)

// ---------------------------------------------------------------------------------------------
// History, candle, hot-read and alias REST

/** encodeURIComponent, with a lone surrogate (which it refuses) sent as its raw UTF-8 bytes. */
function encode(s: string): string {
  try {
    return encodeURIComponent(s)
  } catch {
    return '%ED%A0%80'
  }
}

/** Path segments: real ones, odd ones, malformed percent-encoding, very long ones. */
function segment(rng: Rng): string {
  return rng.pick([
    '1',
    '0',
    '2',
    '999999999',
    '9007199254740993',
    '-1',
    '1.5',
    '1e3',
    'BTC-USD',
    'btc',
    'ETH',
    'XAU-USD',
    'DOGE-USD',
    'latest',
    '%',
    '%E0%A4%A',
    '%zz',
    '%00',
    '%2F',
    '..',
    '.',
    `0x${'0'.repeat(64)}`,
    `0x${rng.hex(64)}`,
    `0x${rng.hex(63)}`,
    'x'.repeat(5_000),
    encode(rng.text(1 + rng.int(30))),
    encode(String(oddValue(rng, 0))),
  ])
}

const QUERY_NAMES = [
  'offset',
  'limit',
  'cursor',
  'include_total',
  'account',
  'owner',
  'address',
  'signer',
  'market_id',
  'symbol',
  'from_block',
  'to_block',
  'action_kind',
  'depth',
  'from',
  'to',
  'interval',
  'q',
  'metric',
  'period',
  'role',
  'direction',
  'flow_type',
  'sub_kind',
  'include_open',
  'junk',
]

function queryString(rng: Rng): string {
  const parts: string[] = []
  for (let i = rng.int(6); i > 0; i--) {
    const name = rng.pick(QUERY_NAMES)
    const value = rng.pick([
      '0',
      '1',
      '50',
      '200',
      '201',
      '1000',
      '1001',
      '2001',
      '99999999999999999999',
      '-1',
      '1.5',
      '1e3',
      'abc',
      '',
      'true',
      rng.pick(ADDRESSES),
      'BTC',
      'btc-usd',
      'eyJ4IjoxfQ',
      'AAAA',
      '!!!',
      `0x${rng.hex(40)}`,
      '1m',
      '7m',
      '1M',
      'pnl',
      'all',
      'inviter',
      'deposit',
      String(oddValue(rng, 0)),
      'x'.repeat(3_000),
    ])
    parts.push(rng.chance(0.05) ? `${name}=%ZZ` : `${encode(name)}=${encode(value)}`)
  }
  if (rng.chance(0.1)) parts.push(parts[0] ?? 'limit=1') // the same name twice
  if (rng.chance(0.05)) parts.push('&&=&')
  return parts.length === 0 ? '' : `?${parts.join('&')}`
}

/** Route templates; `history` routes may answer 500 for a missing required parameter (docs/errors.md#http-statuses). */
const REST_ROUTES: { path: (rng: Rng) => string; history?: boolean; hot?: boolean }[] = [
  ...[
    'blocks',
    'envelopes',
    'fills',
    'orders',
    'fund-flows',
    'bridge-flows',
    'positions',
    'referral/events',
    'rebate/events',
    'account/events',
    'account-stats',
    'leaderboard',
    'search',
    'chain/account',
    'chain/open-orders',
    'status',
    'candles',
  ].map((p) => ({ path: () => `/api/v1/${p}`, history: true })),
  { path: (rng) => `/api/v1/blocks/${segment(rng)}`, history: true },
  { path: (rng) => `/api/v1/blocks/${segment(rng)}/events`, history: true },
  { path: (rng) => `/api/v1/blocks/${segment(rng)}/envelopes`, history: true },
  { path: (rng) => `/api/v1/tx/${segment(rng)}`, history: true },
  { path: (rng) => `/api/v1/market/orderbook/${segment(rng)}`, hot: true },
  { path: (rng) => `/api/v1/market/trades/${segment(rng)}`, hot: true },
  { path: (rng) => `/api/v1/markets/${segment(rng)}/summary`, hot: true },
  { path: () => '/api/v1/bbos', hot: true },
  { path: () => '/api/v1/marks', hot: true },
  { path: () => '/api/v1/markets', hot: true },
  { path: (rng) => `/api/v1/markets/${segment(rng)}` },
  { path: (rng) => `/api/v1/orderbook/${segment(rng)}` },
  { path: () => '/api/v1/stats' },
  { path: () => '/api/v1/health' },
  { path: () => '/api/v1/health/live' },
  {
    path: (rng) =>
      rng.pick([
        '/api/v1/nope',
        '/api/v2/blocks',
        '//api/v1/blocks',
        '/api/v1/blocks/1/2/3',
        '/health',
        '/api/v1/ws/hl',
        `/api/v1/${segment(rng)}`,
      ]),
  },
]

function restProblem(route: (typeof REST_ROUTES)[number], r: HttpReply): string | undefined {
  if (r.failure !== undefined) return `no reply: ${r.failure}`
  if (!r.jsonOk) return `HTTP ${r.status}, body is not JSON`
  if (r.status === 200) return undefined
  const error = (r.json as Body | null)?.error
  if (typeof error !== 'string' || error === '') return `HTTP ${r.status} without {error: string}`
  if (r.status === 400 || r.status === 404) return undefined
  if (r.status === 500 && route.history === true && error.startsWith('missing required parameter')) return undefined
  if (r.status === 503 && route.hot === true && error === 'market feed seeding') return undefined
  return `HTTP ${r.status}`
}

test('history, candle, hot-read and alias REST: odd segments, junk query strings, huge limits, bad cursors', async () => {
  const rng = new Rng(seed ^ 0x4e)
  const findings = new Findings(seed)
  const calls = Array.from({ length: 2_000 }, () => {
    const route = rng.pick(REST_ROUTES)
    return {
      route,
      url: `${node.url}${route.path(rng)}${queryString(rng)}`,
      method: rng.chance(0.03) ? rng.pick(['POST', 'PUT', 'DELETE']) : 'GET',
    }
  })
  await inParallel(calls, 12, async ({ route, url, method }) => {
    const r = await http(url, { method })
    const problem =
      method === 'GET'
        ? restProblem(route, r)
        : (r.failure ?? (r.jsonOk && r.status >= 400 && r.status < 500 ? undefined : `HTTP ${r.status} ${r.jsonOk ? '' : 'non-JSON'}`))
    findings.check(
      problem === undefined,
      `${method} ${problem}`,
      url.slice(node.url.length, node.url.length + 300),
      r.failure ?? `${r.status} ${r.text.slice(0, 300)}`,
    )
  })

  // POST /info: only candleSnapshot; an unknown type is 400 {error: 'unknown request type: ...'}.
  const infoBodies = Array.from({ length: 300 }, () => {
    const good = {
      type: 'candleSnapshot',
      req: { coin: rng.pick(['BTC', 'eth-usd', 'NOPE']), interval: rng.pick(['1m', '1h', '7x']), startTime: 0, endTime: Date.now() },
    }
    return rng.pick([
      JSON.stringify(good),
      JSON.stringify(mutateObject(rng, good)),
      JSON.stringify({ ...good, req: mutateObject(rng, good.req) }),
      JSON.stringify(oddValue(rng)),
      JSON.stringify({ type: oddValue(rng, 1) }),
      JSON.stringify(good).slice(0, rng.int(40)),
      '',
    ])
  })
  await inParallel(infoBodies, 12, async (body) => {
    const r = await postText(`${node.url}/info`, body)
    let problem: string | undefined
    if (r.failure !== undefined || !r.jsonOk) problem = `HTTP ${r.status}, no JSON reply`
    else if (r.status === 200) problem = Array.isArray(r.json) ? undefined : 'a 200 must be a Candle[]'
    else {
      const error = (r.json as Body | null)?.error
      const type = (() => {
        try {
          return (JSON.parse(body) as Body | null)?.type
        } catch {
          return undefined
        }
      })()
      if (typeof error !== 'string') problem = `HTTP ${r.status} without {error}`
      else if (
        r.status === 400 &&
        type !== 'candleSnapshot' &&
        !error.startsWith('unknown request type: ') &&
        !error.startsWith('the body must be')
      )
        problem = 'unknown type must say so'
      else if (r.status === 500 && !error.startsWith('missing required parameter')) problem = 'HTTP 500'
      else if (![400, 500].includes(r.status)) problem = `HTTP ${r.status}`
    }
    findings.check(problem === undefined, `/info: ${problem}`, body, r.failure ?? `${r.status} ${r.text.slice(0, 300)}`)
  })
  findings.assertNone('REST')
}, 60_000)

test('path segments are percent-decoded once: a literal % is not found, a double-encoded symbol names nothing', async () => {
  for (const path of [
    '/api/v1/markets/%25',
    '/api/v1/orderbook/%25',
    '/api/v1/market/orderbook/%25',
    '/api/v1/markets/%25/summary',
    '/api/v1/market/trades/%25',
    '/api/v1/markets/BTC%252DUSD',
  ]) {
    const r = await http(`${node.url}${path}`)
    expect({ path, status: r.status, error: typeof (r.json as Body | undefined)?.error }).toEqual({ path, status: 404, error: 'string' })
  }
  const r = await http(`${node.url}/api/v1/blocks/%25`)
  expect([r.status, r.jsonOk]).toEqual([404, true])
})

// ---------------------------------------------------------------------------------------------
// WebSocket

const TOPICS_PER_CONNECTION_MAX = 1_000

function topic(rng: Rng): unknown {
  return rng.pick<() => unknown>([
    () =>
      rng.pick([
        'block',
        'marks',
        'blocks.live',
        'book.BTC',
        'book.btc-usd.10',
        'book.ETH.0',
        'book.BTC.99999',
        'trades.SOL',
        'bbo.ETH-USD',
        'external_quote.XAU',
        'candles.BTC.1m',
      ]),
    () =>
      rng.pick(['account', 'userFills', 'orderUpdates', 'triggerUpdates']) +
      '.' +
      rng.pick([`0x${rng.hex(40)}`, rng.hex(40), `0x${rng.hex(39)}`, 'nope']),
    () =>
      rng.pick(['book', 'trades', 'bbo', 'candles', 'external_quote', 'Block', 'BLOCK', 'marks.x', 'blocks', 'nope']) +
      '.' +
      String(oddValue(rng, 0)),
    () =>
      rng.pick([
        'book.BTC.-1',
        'book.BTC.1.5',
        'candles.BTC.7m',
        'candles.BTC',
        'external_quote.BTC',
        'book.',
        '.',
        '',
        'x'.repeat(129),
        '\u0000',
      ]),
    () => oddValue(rng, 1),
  ])()
}

/** A client frame: junk text, binary, or a subscribe / unsubscribe with odd topics and fields. */
function wsFrame(rng: Rng): string | Uint8Array {
  const roll = rng.int(10)
  const op = rng.pick(['subscribe', 'unsubscribe'])
  if (roll < 5) return JSON.stringify({ op, topics: Array.from({ length: rng.int(8) }, () => topic(rng)) })
  if (roll < 6) return new TextEncoder().encode(JSON.stringify({ op, topics: [topic(rng)] }))
  if (roll < 7) return Uint8Array.from({ length: 1 + rng.int(64) }, () => rng.int(256))
  if (roll < 8)
    return JSON.stringify(
      rng.pick([
        { op: oddValue(rng, 0), topics: [] },
        { op },
        { op, topics: oddValue(rng, 1) },
        { topics: ['block'] },
        mutateObject(rng, { op, topics: ['block'] }),
      ]),
    )
  return rng.pick([
    '',
    ' ',
    '{',
    '}',
    '[]',
    'null',
    '1',
    'true',
    '{"op":"subscribe","topics":["block"]',
    rng.text(1 + rng.int(100)),
    deepNesting(1 + rng.int(5_000)),
  ])
}

/** The reply a frame must get: subscribe / unsubscribe confirmations only for well-formed ones. */
function wsReplyProblem(frame: string | Uint8Array, reply: Body): string | undefined {
  const text = typeof frame === 'string' ? frame : new TextDecoder().decode(frame)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return reply.op === 'error' && typeof reply.message === 'string' ? undefined : 'unparseable frame must get {op: error}'
  }
  const v = value as Body
  const wellFormed =
    typeof v === 'object' && v !== null && !Array.isArray(v) && (v.op === 'subscribe' || v.op === 'unsubscribe') && Array.isArray(v.topics)
  if (!wellFormed) return reply.op === 'error' && typeof reply.message === 'string' ? undefined : 'expected {op: error}'
  if (reply.op !== `${v.op}d`) return `expected op ${v.op}d`
  const topics = reply.topics as unknown[]
  const rejected = (reply.rejected ?? []) as unknown[]
  if (!Array.isArray(topics) || !topics.every((t) => typeof t === 'string' && (v.topics as unknown[]).includes(t)))
    return 'topics must be strings the frame named'
  if (!Array.isArray(rejected) || !rejected.every((t) => typeof t === 'string') || ('rejected' in reply && rejected.length === 0))
    return 'rejected must be a non-empty string[] when present'
  if (v.op === 'subscribe' && (new Set(topics).size !== topics.length || topics.length > TOPICS_PER_CONNECTION_MAX))
    return 'subscribed topics must be unique and within the limit'
  const nonStrings = (v.topics as unknown[]).filter((t) => typeof t !== 'string').length
  return rejected.length >= nonStrings ? undefined : 'every non-string topic must be rejected'
}

/** Opens a socket and records its frames and close. */
async function openWs() {
  const socket = new WebSocket(`${node.url.replace('http', 'ws')}/api/v1/ws`)
  const state = { frames: [] as Body[], nonJson: [] as string[], closeCode: undefined as number | undefined, socket }
  socket.onmessage = (e) => {
    try {
      state.frames.push(JSON.parse(String(e.data)) as Body)
    } catch {
      state.nonJson.push(String(e.data))
    }
  }
  socket.onclose = (e) => {
    state.closeCode = e.code
  }
  await new Promise<void>((resolve, reject) => {
    socket.onopen = () => resolve()
    socket.onerror = () => reject(new Error('websocket did not open'))
    setTimeout(() => reject(new Error('websocket did not open in 5 s')), 5_000)
  })
  return state
}

const isControl = (f: Body) => f.op === 'error' || f.op === 'subscribed' || f.op === 'unsubscribed'

async function waitFor(pred: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (!pred()) {
    if (Date.now() > deadline) return false
    await Bun.sleep(10)
  }
  return true
}

test('WebSocket: junk, binary and oversized frames, unknown ops and topics, subscribe floods within the limits', async () => {
  const rng = new Rng(seed ^ 0x3b)
  const findings = new Findings(seed)
  for (let c = 0; c < 8; c++) {
    const ws = await openWs()
    const frames = Array.from({ length: 60 }, () => wsFrame(rng))
    // A flood: more topics than a connection may hold, all valid; the excess is rejected by name.
    if (c % 2 === 0)
      frames.push(
        JSON.stringify({
          op: 'subscribe',
          topics: Array.from({ length: TOPICS_PER_CONNECTION_MAX + 50 }, (_, i) => `account.${i.toString(16).padStart(40, '0')}`),
        }),
      )
    for (const f of frames) ws.socket.send(f)
    const all = await waitFor(() => ws.frames.filter(isControl).length >= frames.length || ws.closeCode !== undefined, 5_000)
    const controls = ws.frames.filter(isControl)
    findings.check(
      all && ws.closeCode === undefined,
      `connection ${c}: ${controls.length} replies to ${frames.length} frames, close ${ws.closeCode}`,
      frames.slice(controls.length, controls.length + 1).map(String),
      ws.frames.slice(-3),
    )
    findings.check(ws.nonJson.length === 0, 'every server frame is JSON', '', ws.nonJson.slice(0, 3))
    const seqs = ws.frames.map((f) => f.seq as number)
    findings.check(
      seqs.every((s, i) => Number.isInteger(s) && (i === 0 || s > seqs[i - 1]!)),
      'seq increases on every frame',
      '',
      seqs.slice(0, 40),
    )
    controls.forEach((reply, i) => {
      const problem = wsReplyProblem(frames[i]!, reply)
      const f = frames[i]!
      findings.check(
        problem === undefined,
        `ws reply ${i}: ${problem}`,
        typeof f === 'string' ? f : `binary ${Buffer.from(f).toString('hex').slice(0, 200)}`,
        reply,
      )
    })
    if (c % 2 === 0) {
      const flood = controls[frames.length - 1]
      findings.check(
        flood?.topics?.length === TOPICS_PER_CONNECTION_MAX && flood?.rejected?.length === 50,
        'a subscribe flood keeps the first 1000 topics',
        'flood',
        { topics: flood?.topics?.length, rejected: flood?.rejected?.length },
      )
    }
    // A frame past the 65536-byte limit closes the connection with 1009.
    if (c === 7) {
      ws.socket.send(JSON.stringify({ op: 'subscribe', topics: ['x'.repeat(70_000)] }))
      const closed = await waitFor(() => ws.closeCode !== undefined, 5_000)
      findings.check(closed && ws.closeCode === 1009, 'an oversized frame closes with 1009', '70 KB frame', ws.closeCode)
    } else ws.socket.close()
  }
  findings.assertNone('WebSocket')
}, 60_000)

// ---------------------------------------------------------------------------------------------

test('clients that hang up in the middle of a body (chunked or with a declared length) leave no error behind', async () => {
  for (const path of ['/api/v1/action', '/api/v1/query', '/info']) await hangUpMidBody(node.url, path)
  await Bun.sleep(200)
  // The last test checks the node's output for any error; the node still answers.
  expect((await http(`${node.url}/api/v1/health`)).status).toBe(200)
})

test('after the fuzz the node is alive, producing blocks, and holds exactly the effects of the valid actions', async () => {
  const health = await http(`${node.url}/api/v1/health`)
  expect(health.status).toBe(200)
  expect(health.json).toMatchObject({ status: 'ok' })
  const h0 = (await rpc.query<{ height: number }>('getHealth')).data.height
  await Bun.sleep(400)
  expect((await rpc.query<{ height: number }>('getHealth')).data.height).toBeGreaterThan(h0)

  // Nonces: exactly the ones of actions that reached a block, for both fuzz keys.
  for (const [address, used] of consumed) {
    const n = (await rpc.query<{ nonce: number; used_above: number[] }>('getNonce', { address })).data
    const sorted = [...used].sort((a, b) => a - b)
    let lowest = 0
    while (used.has(lowest)) lowest++
    expect({ address, nonce: n.nonce, used_above: n.used_above }).toEqual({
      address,
      nonce: lowest,
      used_above: sorted.filter((x) => x > lowest),
    })
  }
  // Balances: the ledger key and its payee moved exactly the accepted transfers; nothing else touched them.
  const balanceMicros = async (address: string) => {
    const b = (await rpc.query<{ balance: string }>('getAccount', { address })).data.balance
    const [int, frac = ''] = b.split('.')
    return BigInt(int!) * 1_000_000n + BigInt(frac.padEnd(6, '0'))
  }
  const start = 1_000_000n * 1_000_000n
  expect(transferredMicros).toBeGreaterThan(0n)
  expect(await balanceMicros(ledger.address)).toBe(start - transferredMicros)
  expect(await balanceMicros(payee.address)).toBe(start + transferredMicros)
  expect((await rpc.query<unknown[]>('getAccountOrders', { address: ledger.address })).data).toEqual([])
  // Every action that reached a block is found again with its status.
  for (const l of landed) {
    const tx = (await rpc.query<{ status: string }>('getTx', { tx_hash: l.txHash })).data
    expect(tx.status).toBe(l.status)
  }
  // No uncaught exception, internal error or fatal stop in the node's output.
  expect(node.output()).not.toMatch(
    /uncaught|unhandled|http error|failed:|fatal|TypeError|RangeError|SyntaxError|ReferenceError|internal error/i,
  )
})
