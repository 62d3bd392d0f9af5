// A bounded, seeded fuzz of perpd-admin's inputs (docs/admin.md#http-api, docs/admin.md#errors;
// docs/protocol.md#admin-login-signature, docs/protocol.md#key-upload-encryption): a few thousand
// malformed, mismatched, replayed, oversized or odd requests to every route the service serves,
// each answered within a deadline with the status and `{error, reason}` body that
// docs/admin.md#errors gives, never a 500, never a non-JSON body; afterwards the service is alive,
// a valid login works, and garbage stored or changed nothing (keys, bindings, audit log, process
// output).
// The seed is printed; rerun one with ADMIN_FUZZ_SEED=<seed>.
import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { secp256k1 } from '@noble/curves/secp256k1.js'
import { bytesToHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { mulberry32Unit } from '../../src/lib/prng.ts'
import { eciesEncrypt } from '../../src/wire/ecies.ts'
import { api, loginBytes, loginToken, startAdminWithNodeForFile } from '../support/admin-process.ts'
import { DEV_KEYS } from '../support/node-process.ts'
import { hangUpMidBody, type RawReply, type RawRequest, rawRequest } from '../support/raw-http.ts'

// A fixed default, so CI runs the same inputs every time; other seeds are for exploring.
const SEED = process.env.ADMIN_FUZZ_SEED !== undefined ? Number(process.env.ADMIN_FUZZ_SEED) >>> 0 : 20_261_122
console.log(`admin fuzz seed ${SEED} (rerun with ADMIN_FUZZ_SEED=${SEED})`)

/** Per-request deadline: a reply slower than this is a hang. */
const REQUEST_TIMEOUT_MS = 5_000
/** Requests in flight at once. */
const CONCURRENCY = 6
/** The service's body limit (src/admin/http/app.ts ADMIN_REQUEST_BODY_MAX_BYTES), restated. */
const BODY_MAX_BYTES = 64 * 1024
/** Login requests sent from one loopback address before moving to the next: below the per-IP limit. */
const LOGINS_PER_SOURCE_IP = 100

const ADMIN_KEY = DEV_KEYS[0] as Hex
const ADMIN_ADDRESS = privateKeyToAccount(ADMIN_KEY).address.toLowerCase()
const TRADER_KEY = DEV_KEYS[1] as Hex

const { admin } = await startAdminWithNodeForFile()
const A = admin.url

// ---------------------------------------------------------------------------------------------
// Seeded randomness

const rand = mulberry32Unit(SEED)
const int = (n: number) => Math.floor(rand() * n)
const chance = (p: number) => rand() < p
function pick<T>(items: readonly T[]): T {
  return items[int(items.length)]!
}
function bytes(n: number): Uint8Array {
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) out[i] = int(256)
  return out
}
const hex = (n: number) => bytesToHex(bytes(n))
function randomCase(s: string): string {
  return [...s].map((c) => (chance(0.5) ? c.toUpperCase() : c.toLowerCase())).join('')
}
/** A private key from the seed (valid: the chance of one outside 1..n-1 is negligible, and checked). */
function seededKey(): Hex {
  for (;;) {
    const k = bytes(32)
    if (secp256k1.utils.isValidSecretKey(k)) return bytesToHex(k)
  }
}
const randomAddress = () => `0x${randomCase(hex(20).slice(2))}`
const randomUuid = () => {
  const h = hex(16).slice(2)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** A JSON number token the serializer writes verbatim (1e400, -0, 1.0…), which JSON.stringify cannot. */
class Raw {
  constructor(readonly text: string) {}
}
function toJson(v: unknown): string {
  if (v instanceof Raw) return v.text
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`)
      .join(',')}}`
  return JSON.stringify(v) ?? 'null'
}

const ODD_STRINGS = [
  '',
  ' ',
  '\t\n',
  'null',
  'true',
  '0',
  '-1',
  '1e400',
  'NaN',
  '__proto__',
  'constructor',
  "'; DROP TABLE keys; --",
  '../../etc/passwd',
  '%00',
  '%zz',
  '\u0000',
  '\u202e\u0041',
  'é',
  '😀'.repeat(20),
  '\ud800',
  '\udfff\ud800',
  'A\u0301\u0301\u0301',
  '{"a":1}',
  '0x',
  `0X${'ab'.repeat(20)}`,
]
function junkString(): string {
  switch (int(7)) {
    case 0:
      return pick(ODD_STRINGS)
    case 1:
      return Array.from({ length: int(40) }, () => String.fromCharCode(32 + int(95))).join('')
    case 2:
      return Array.from({ length: 1 + int(30) }, () =>
        String.fromCodePoint(pick([int(0x20), 0x80 + int(0x780), 0x4e00 + int(0x5000), 0xd800 + int(0x800), 0x1f600 + int(0x50)])),
      ).join('')
    case 3:
      return pick(['a', 'é', '😀', '0']).repeat(pick([65, 201, 1025, 5_000, 20_000]))
    case 4:
      return (chance(0.5) ? '0x' : '') + hex(int(70)).slice(2)
    case 5:
      return `0x${hex(int(40)).slice(2)}${pick(['g', 'G', ' ', 'z', '-', '\u0000'])}`
    default:
      return randomUuid() + pick(['', '}', ' ', 'x'])
  }
}
function junkNumber(): unknown {
  return pick<unknown>([
    0,
    -1,
    1.5,
    2 ** 53,
    2 ** 53 + 2,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER,
    int(1e9),
    1e-300,
    new Raw('-0'),
    new Raw('1e400'),
    new Raw('-1e400'),
    new Raw('1.0'),
    new Raw('1E3'),
    new Raw('12345678901234567890123'),
  ])
}
function junkValue(depth = 0): unknown {
  switch (int(depth > 2 ? 4 : 7)) {
    case 0:
      return null
    case 1:
      return chance(0.5)
    case 2:
      return junkNumber()
    case 3:
      return junkString()
    case 4:
      return Array.from({ length: int(4) }, () => junkValue(depth + 1))
    case 5:
      return Object.fromEntries(
        Array.from({ length: int(4) }, () => [
          pick(['a', '__proto__', 'constructor', 'label', junkString().slice(0, 20)]),
          junkValue(depth + 1),
        ]),
      )
    default:
      return pick([new Raw('['.repeat(500) + ']'.repeat(500)), new Raw(`${'{"a":'.repeat(300)}1${'}'.repeat(300)}`)])
  }
}

/** Text that is not JSON, derived from a JSON text (each candidate is checked). */
function notJson(text: string): string | Uint8Array {
  for (let i = 0; i < 10; i++) {
    let out: string | Uint8Array
    switch (int(7)) {
      case 0:
        out = text.slice(0, int(text.length))
        break
      case 1: {
        const at = int(text.length)
        out = text.slice(0, at) + pick(['{', '}', '"', ',', ':', '\\', '\u0000', 'x']) + text.slice(at + 1)
        break
      }
      case 2:
        out = text + pick(['}', ']', ',', 'x', ' {}'])
        break
      case 3:
        out = pick([
          '',
          ' ',
          '{',
          '[',
          "{'a':1}",
          '{a:1}',
          'undefined',
          'NaN',
          '{"a":1,}',
          '[1,]',
          '{"a" 1}',
          '0x12',
          '"\\x00"',
          '"\\ud800"x',
        ])
        break
      case 4:
        out = new Uint8Array([
          ...new TextEncoder().encode(text.slice(0, 20)),
          0xff,
          0xfe,
          0xc0,
          0xaf,
          ...new TextEncoder().encode(text.slice(20)),
        ])
        break
      case 5:
        out = text.replace(/"/g, "'")
        break
      default:
        out = '['.repeat(30_000)
        break
    }
    if (typeof out !== 'string') return out
    try {
      JSON.parse(out)
    } catch {
      return out
    }
  }
  return '{nope'
}

/** JSON.parse of a body as the service sees it, or a marker for invalid JSON. */
const INVALID = Symbol('invalid json')
function parsedBody(body: string | Uint8Array | undefined): unknown {
  try {
    const text = typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body)
    return JSON.parse(text)
  } catch {
    return INVALID
  }
}

// ---------------------------------------------------------------------------------------------
// Cases and the expectations on their replies

/** A reply the case accepts: a status and, for errors, the allowed `reason` codes. */
interface Allowed {
  readonly status: number
  readonly reasons?: readonly string[]
}

/** One fuzz input: how to make the request (some need a fresh challenge), and what may come back. */
interface Case {
  readonly label: string
  make(): Promise<RawRequest>
  readonly allowed: readonly Allowed[]
  /** More checks of a 2xx reply's body; returns what is wrong, or undefined. */
  readonly checkOk?: (body: any) => string | undefined
}

const INVALID_REQUEST: Allowed = { status: 400, reasons: ['INVALID_REQUEST'] }
const INVALID_JSON: Allowed = { status: 400, reasons: ['INVALID_JSON'] }
const UNAUTHENTICATED: Allowed = { status: 401, reasons: ['UNAUTHENTICATED'] }
const NO_ROUTE: Allowed = { status: 404, reasons: ['NOT_FOUND'] }
const TOO_LARGE: Allowed = { status: 413, reasons: ['BODY_TOO_LARGE'] }
/** A login refused by its rate limits: allowed on the login routes (docs/admin.md#limits). */
const LOGIN_RATE_LIMITED: Allowed = { status: 429, reasons: ['RATE_LIMITED'] }

const jsonHeaders = (extra: [string, string][] = []): [string, string][] => [['Content-Type', 'application/json'], ...extra]
const bearer = (token: string): [string, string] => ['Authorization', `Bearer ${token}`]

/** What is wrong with a reply, or undefined when the case allows it. */
function verdict(c: Case, r: RawReply): string | undefined {
  if (r.status >= 500 && r.status !== 503) return `status ${r.status}`
  // Bun refuses a body over maxRequestBodySize itself, before the app sees the request, with an
  // empty 413: the one reply whose body is not the service's JSON.
  if (r.status === 413 && r.text === '' && c.allowed.some((a) => a.status === 413)) return undefined
  if (!(r.headers['content-type'] ?? '').startsWith('application/json'))
    return `content-type ${r.headers['content-type']} (status ${r.status})`
  let body: any
  try {
    body = JSON.parse(r.text)
  } catch {
    return `a body that is not JSON (status ${r.status})`
  }
  const allowed = c.allowed.find((a) => a.status === r.status)
  if (allowed === undefined) return `status ${r.status}, expected ${c.allowed.map((a) => a.status).join(' or ')}`
  if (r.status >= 400) {
    if (typeof body?.error !== 'string' || body.error === '' || typeof body?.reason !== 'string')
      return 'an error body without {error, reason}'
    if (allowed.reasons !== undefined && !allowed.reasons.includes(body.reason))
      return `reason ${body.reason}, expected ${allowed.reasons.join(' or ')}`
    if (r.status === 429 && !(Number(r.headers['retry-after']) > 0)) return '429 without Retry-After'
    return undefined
  }
  return c.checkOk?.(body)
}

function describeRequest(req: RawRequest): string {
  const body = req.body === undefined ? '' : typeof req.body === 'string' ? req.body : `<bytes ${Buffer.from(req.body).toString('hex')}>`
  const cut = (s: string) => (s.length > 600 ? `${s.slice(0, 600)}…(${s.length} chars)` : s)
  return `${req.method} ${cut(req.path)} headers=${cut(JSON.stringify(req.headers ?? []))} from=${req.localAddress ?? '127.0.0.1'} body=${cut(JSON.stringify(body))}`
}

/** Runs cases CONCURRENCY at a time; returns one line per failure (seed, case, input, what). */
async function runCases(cases: readonly Case[]): Promise<{ failures: string[]; statuses: Map<number, number> }> {
  const failures: string[] = []
  const statuses = new Map<number, number>()
  let next = 0
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++]!
      let req: RawRequest | undefined
      try {
        req = await c.make()
        const reply = await rawRequest(A, req)
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1)
        // Junk can make any body too large; then that is the one right answer.
        const oversized = req.body !== undefined && Buffer.byteLength(req.body) > BODY_MAX_BYTES
        const wrong = verdict(oversized ? { ...c, allowed: [TOO_LARGE] } : c, reply)
        if (wrong !== undefined)
          failures.push(
            `seed ${SEED} [${c.label}] ${wrong}: ${reply.text.slice(0, 300)}\n    input: ${req === undefined ? '?' : describeRequest(req)}`,
          )
      } catch (err) {
        failures.push(`seed ${SEED} [${c.label}] ${(err as Error).message}\n    input: ${req === undefined ? '?' : describeRequest(req)}`)
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return { failures, statuses }
}

// ---------------------------------------------------------------------------------------------
// State the fuzz must not change: one stored key, bound to the liquidator (so deletes meet 409)

let token = await loginToken(A, ADMIN_KEY)
const serverPublicKey = (await api(A, '/api/keys/encryption-key')).body.public_key as Hex
const anchorKey = seededKey()
const anchorUpload = {
  label: 'anchor',
  address: privateKeyToAccount(anchorKey).address,
  ...eciesEncrypt(serverPublicKey, new TextEncoder().encode(anchorKey)),
}
const anchor = await api(A, '/api/keys', { method: 'POST', token, body: anchorUpload })
if (anchor.status !== 201) throw new Error(`anchor upload: ${anchor.status} ${anchor.text}`)
const anchorId = anchor.body.id as string
const bound = await api(A, '/api/service-config', {
  method: 'PUT',
  token,
  body: { service: 'liquidator', key_id: anchorId, enabled: false },
})
if (bound.status !== 200) throw new Error(`anchor bind: ${bound.status} ${bound.text}`)

// A top-level category with a sub-category (so deleting it meets 409), which the catalog cases aim at.
const fuzzTop = await api(A, '/api/market-categories', { method: 'POST', token, body: { code: 'FuzzTop', name: 'Fuzz top' } })
if (fuzzTop.status !== 201) throw new Error(`category: ${fuzzTop.status} ${fuzzTop.text}`)
const fuzzTopId = fuzzTop.body.id as number
const fuzzSub = await api(A, '/api/market-categories', {
  method: 'POST',
  token,
  body: { code: 'fuzzsub', name: 'Fuzz sub', parent_id: fuzzTopId },
})
if (fuzzSub.status !== 201) throw new Error(`sub-category: ${fuzzSub.status} ${fuzzSub.text}`)
const fuzzSubId = fuzzSub.body.id as number

// A hedge account (it seeds the default policy of XAU-USD), which the hedge cases aim at.
const hedgeAnchorKey = seededKey()
const hedgeAnchorCiphertext = eciesEncrypt(serverPublicKey, new TextEncoder().encode(hedgeAnchorKey))
const hedgeAnchor = await api(A, '/api/hedge/accounts', {
  method: 'POST',
  token,
  body: { name: 'hedge anchor', ciphertext: hedgeAnchorCiphertext },
})
if (hedgeAnchor.status !== 200) throw new Error(`hedge account: ${hedgeAnchor.status} ${hedgeAnchor.text}`)
const hedgeAnchorId = hedgeAnchor.body.account.id as string

function snapshot() {
  const db = new Database(admin.dbFile, { readonly: true })
  try {
    return {
      categories: db.query('SELECT * FROM market_categories ORDER BY id').all(),
      catalog: db.query('SELECT * FROM market_catalog ORDER BY symbol').all(),
      hedge: {
        accounts: db.query('SELECT id, name, address, enabled, nonce, sealed, updated_at_ms FROM hedge_accounts ORDER BY id').all(),
        policies: db.query('SELECT * FROM hedge_policies ORDER BY market_symbol').all(),
        config: db.query('SELECT * FROM hedge_config').all(),
        orders: db.query('SELECT * FROM hedge_orders ORDER BY id').all(),
      },
      keys: db.query('SELECT id, label, address, nonce, sealed FROM keys ORDER BY id').all(),
      bindings: db.query('SELECT service, key_id, enabled, updated_at_ms FROM service_bindings ORDER BY service').all(),
      audit: db.query('SELECT id, actor, action, target, detail FROM audit_log ORDER BY id').all() as {
        id: number
        actor: string
        action: string
      }[],
    }
  } finally {
    db.close()
  }
}
const before = snapshot()
/** Logins the fuzz makes succeed on purpose (address casing): each writes one `login` audit row. */
let expectedLogins = 0

// ---------------------------------------------------------------------------------------------
// Generators

const SERVICES = ['oracle', 'liquidator', 'hedger', 'bridge_deposit', 'bridge_withdraw']
let loginSource = 0
/** The loopback address the next login request comes from (spreads the per-IP login limit). */
function loginSourceIp(): string {
  const n = loginSource++
  return `127.0.${1 + Math.floor(n / LOGINS_PER_SOURCE_IP / 250)}.${2 + (Math.floor(n / LOGINS_PER_SOURCE_IP) % 250)}`
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

/** Whether a parsed login body has the shape of docs/admin.md#login (the service's limits restated). */
function loginShapeOk(v: unknown): boolean {
  return (
    isObject(v) &&
    typeof v.address === 'string' &&
    ADDRESS.test(v.address) &&
    Number.isSafeInteger(v.timestamp_ms) &&
    (v.timestamp_ms as number) >= 0 &&
    typeof v.signature === 'string' &&
    v.signature.length <= 200
  )
}

/** A body replacing, dropping or adding fields of `base` with junk. */
function mutateFields(base: Record<string, unknown>): unknown {
  const out: Record<string, unknown> = { ...base }
  const keys = Object.keys(base)
  for (let n = 1 + int(2); n > 0; n--) {
    const k = pick(keys)
    switch (int(4)) {
      case 0:
        delete out[k]
        break
      case 1:
        out[junkString().slice(0, 30) || 'extra'] = junkValue()
        break
      default:
        out[k] = junkValue()
        break
    }
  }
  return chance(0.05) ? pick([null, [], [out], 'text', 42, true]) : out
}

/** A live challenge, signed by `key` (claiming `address`), from the given loopback address. */
async function challengeFrom(localAddress: string) {
  const r = await rawRequest(A, { method: 'GET', path: '/api/auth/challenge', localAddress, timeoutMs: REQUEST_TIMEOUT_MS })
  if (r.status !== 200) throw new Error(`challenge: ${r.status} ${r.text}`)
  return JSON.parse(r.text) as { challenge: string; timestamp_ms: number }
}
const loginRequest = (body: string | Uint8Array, localAddress: string, headers = jsonHeaders()): RawRequest => ({
  method: 'POST',
  path: '/api/auth/login',
  headers,
  body,
  localAddress,
  timeoutMs: REQUEST_TIMEOUT_MS,
})

/** Expected replies of a login body that reaches no live challenge. */
function loginNoChallenge(body: string | Uint8Array): Allowed[] {
  const v = parsedBody(body)
  if (v === INVALID) return [INVALID_JSON, LOGIN_RATE_LIMITED]
  return loginShapeOk(v) ? [{ status: 401, reasons: ['CHALLENGE_MISSING'] }, LOGIN_RATE_LIMITED] : [INVALID_REQUEST, LOGIN_RATE_LIMITED]
}

function loginCases(): Case[] {
  const cases: Case[] = []
  // Junk bodies with no live challenge behind them.
  for (let i = 0; i < 500; i++) {
    const base = { address: randomAddress(), timestamp_ms: chance(0.5) ? Date.now() - int(1e6) : int(2 ** 31), signature: hex(65) }
    const obj = chance(0.8) ? mutateFields(base) : base
    const body = chance(0.15) ? notJson(toJson(obj)) : toJson(obj)
    const ip = loginSourceIp()
    cases.push({ label: 'login junk', make: async () => loginRequest(body, ip), allowed: loginNoChallenge(body) })
  }
  // A live challenge with a wrong signature for a random address: 401 SIGNATURE_MISMATCH.
  for (let i = 0; i < 120; i++) {
    const address = randomAddress()
    const kind = int(7)
    const other = seededKey()
    const ip = loginSourceIp()
    const flips = 1 + int(3)
    cases.push({
      label: `login bad signature ${kind}`,
      async make() {
        const ch = await challengeFrom(ip)
        const raw = loginBytes(ch.challenge, ch.timestamp_ms)
        const good = await privateKeyToAccount(ADMIN_KEY).signMessage({ message: { raw } })
        let signature: string
        switch (kind) {
          case 0:
            signature = hex(65)
            break
          case 1:
            signature = `0x${hex(int(80)).slice(2)}`
            break
          case 2:
            signature = await privateKeyToAccount(other).signMessage({ message: { raw } })
            break
          case 3:
            signature = await privateKeyToAccount(other).signMessage({ message: { raw: loginBytes(ch.challenge, ch.timestamp_ms + 1) } })
            break
          case 4: {
            let s = good
            for (let f = 0; f < flips; f++) {
              const at = 2 + int(130)
              s = s.slice(0, at) + (s[at] === '0' ? '1' : '0') + s.slice(at + 1)
            }
            signature = s
            break
          }
          case 5:
            signature = good.slice(0, 2 + int(128))
            break
          default:
            signature = junkString().slice(0, 200)
            break
        }
        return loginRequest(toJson({ address, timestamp_ms: ch.timestamp_ms, signature }), ip)
      },
      allowed: [{ status: 401, reasons: ['SIGNATURE_MISMATCH'] }, LOGIN_RATE_LIMITED],
    })
  }
  // A correct signature by an address that is not an Admin on chain: 403.
  for (let i = 0; i < 15; i++) {
    const key = i === 0 ? TRADER_KEY : seededKey()
    const ip = loginSourceIp()
    cases.push({
      label: 'login not admin',
      async make() {
        const ch = await challengeFrom(ip)
        const account = privateKeyToAccount(key)
        const signature = await account.signMessage({ message: { raw: loginBytes(ch.challenge, ch.timestamp_ms) } })
        return loginRequest(
          toJson({ address: randomCase(account.address.slice(2)).replace(/^/, '0x'), timestamp_ms: ch.timestamp_ms, signature }),
          ip,
        )
      },
      allowed: [{ status: 403, reasons: ['NOT_ADMIN'] }, LOGIN_RATE_LIMITED],
    })
  }
  // The admin's correct signature with its address in other forms: any casing logs in (200),
  // a form that is not `0x` + 40 hex digits is a bad request.
  for (let i = 0; i < 12; i++) {
    const form =
      i < 6
        ? `0x${randomCase(ADMIN_ADDRESS.slice(2))}`
        : pick([
            `0X${ADMIN_ADDRESS.slice(2)}`,
            ADMIN_ADDRESS.slice(2),
            ` ${ADMIN_ADDRESS}`,
            `${ADMIN_ADDRESS}\u0000`,
            `${ADMIN_ADDRESS}00`,
            ADMIN_ADDRESS.slice(0, 41),
          ])
    const ok = ADDRESS.test(form)
    if (ok) expectedLogins++
    const ip = loginSourceIp()
    cases.push({
      label: `login admin address form ${JSON.stringify(form)}`,
      async make() {
        const ch = await challengeFrom(ip)
        const signature = await privateKeyToAccount(ADMIN_KEY).signMessage({ message: { raw: loginBytes(ch.challenge, ch.timestamp_ms) } })
        return loginRequest(toJson({ address: form, timestamp_ms: ch.timestamp_ms, signature }), ip)
      },
      allowed: ok ? [{ status: 200 }] : [INVALID_REQUEST],
      checkOk: (b) =>
        typeof b?.token === 'string' && /^[0-9a-f]{64}$/.test(b.token) && Number.isSafeInteger(b.expires_at_secs)
          ? undefined
          : `login reply ${JSON.stringify(b)}`,
    })
  }
  // Replays of a successful login and answers to someone else's challenge timestamp: 401. These
  // count as failures for the admin's address (10 a minute lock it out), so only a few.
  for (let i = 0; i < 3; i++) {
    const ip = loginSourceIp()
    expectedLogins++
    cases.push({
      label: 'login replayed',
      async make() {
        const ch = await challengeFrom(ip)
        const signature = await privateKeyToAccount(ADMIN_KEY).signMessage({ message: { raw: loginBytes(ch.challenge, ch.timestamp_ms) } })
        const body = toJson({ address: ADMIN_ADDRESS, timestamp_ms: ch.timestamp_ms, signature })
        const first = await rawRequest(A, loginRequest(body, ip))
        if (first.status !== 200) throw new Error(`the login to replay failed: ${first.status} ${first.text}`)
        return loginRequest(body, ip)
      },
      allowed: [{ status: 401, reasons: ['CHALLENGE_MISSING'] }],
    })
  }
  // Content types other than JSON, and bodies past the size limit.
  for (let i = 0; i < 40; i++) {
    const body = toJson({ address: randomAddress(), timestamp_ms: int(1e6), signature: hex(65) })
    const type = pick([
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/json; charset=utf-16',
      'image/png',
      '',
      '\u00ff/\u00fe',
    ])
    const ip = loginSourceIp()
    cases.push({
      label: `login content-type ${JSON.stringify(type)}`,
      make: async () => loginRequest(body, ip, type === '' ? [] : [['Content-Type', type]]),
      allowed: [{ status: 401, reasons: ['CHALLENGE_MISSING'] }, { status: 415, reasons: ['UNSUPPORTED_MEDIA_TYPE'] }, LOGIN_RATE_LIMITED],
    })
  }
  for (let i = 0; i < 8; i++) {
    const size = BODY_MAX_BYTES + 1 + int(4 * BODY_MAX_BYTES)
    const body = toJson({ address: randomAddress(), timestamp_ms: 1, signature: 'a'.repeat(size) })
    const ip = loginSourceIp()
    cases.push({ label: `login body of ${size} bytes`, make: async () => loginRequest(body, ip), allowed: [TOO_LARGE, LOGIN_RATE_LIMITED] })
  }
  return cases
}

/** The admin routes that need a session, with a body that is valid apart from the session. */
function authedRoutes(): { method: string; path: string; body?: unknown }[] {
  const upload = { label: 'x', address: randomAddress(), ephemeral_public_key: hex(65), iv: hex(16), ciphertext: hex(48) }
  return [
    { method: 'GET', path: '/api/auth/me' },
    { method: 'GET', path: '/api/keys' },
    { method: 'POST', path: '/api/keys', body: upload },
    { method: 'DELETE', path: `/api/keys/${chance(0.5) ? anchorId : randomUuid()}` },
    { method: 'GET', path: '/api/service-config' },
    {
      method: 'PUT',
      path: '/api/service-config',
      body: { service: pick(SERVICES), key_id: chance(0.5) ? null : anchorId, enabled: chance(0.5) },
    },
    { method: 'GET', path: `/api/audit${pick(['', '?limit=5', '?before_id=1'])}` },
    { method: 'PATCH', path: `/api/keys/${chance(0.5) ? anchorId : randomUuid()}`, body: { label: 'x' } },
    { method: 'POST', path: '/api/auth/logout' },
    { method: 'POST', path: '/api/auth/logout-all' },
    ...categoryAuthedRoutes(),
    ...hedgeAuthedRoutes(),
  ]
}

/** The hedging routes (docs/admin.md#hedging), all Bearer. */
function hedgeAuthedRoutes(): { method: string; path: string; body?: unknown }[] {
  const id = chance(0.5) ? hedgeAnchorId : randomUuid()
  return [
    { method: 'GET', path: '/api/hedge/accounts' },
    { method: 'POST', path: '/api/hedge/accounts', body: { name: 'x', ciphertext: hedgeAnchorCiphertext } },
    { method: 'PUT', path: `/api/hedge/accounts/${id}`, body: { enabled: false } },
    { method: 'DELETE', path: `/api/hedge/accounts/${id}` },
    { method: 'GET', path: '/api/hedge/policies' },
    {
      method: 'PUT',
      path: '/api/hedge/policies',
      body: { market_symbol: 'XAU-USD', hedge_ratio: '1', hedge_mode: 'follow', enabled: true },
    },
    { method: 'DELETE', path: `/api/hedge/policies/${pick(['XAU-USD', 'xau-usd', 'BTC-USD'])}` },
    { method: 'GET', path: '/api/hedge/config' },
    { method: 'PUT', path: '/api/hedge/config', body: { dry_run: false } },
    { method: 'GET', path: `/api/hedge/orders${pick(['', '?limit=5', '?symbol=XAU-USD'])}` },
    { method: 'POST', path: '/api/hedge/orders/reconcile' },
    { method: 'GET', path: '/api/hedge/book-b-stats' },
  ]
}

/** The category and catalog routes that need a session (docs/admin.md#market-categories-and-catalog). */
function categoryAuthedRoutes(): { method: string; path: string; body?: unknown }[] {
  const id = chance(0.5) ? String(fuzzTopId) : junkId()
  const market = chance(0.5) ? '1' : junkId()
  return [
    { method: 'GET', path: '/api/market-categories' },
    { method: 'POST', path: '/api/market-categories', body: { code: 'x', name: 'x' } },
    { method: 'PUT', path: `/api/market-categories/${id}`, body: { name: 'x' } },
    { method: 'DELETE', path: `/api/market-categories/${id}` },
    { method: 'POST', path: `/api/market-categories/${id}/markets`, body: { add: ['btc-usd'] } },
    { method: 'GET', path: `/api/market-catalog${pick(['', '?source=ext', '?source=nope', '?symbol=x'])}` },
    { method: 'POST', path: '/api/market-categories/sync/preview' },
    { method: 'POST', path: '/api/market-categories/sync/import', body: { codes: ['stocks'] } },
    { method: 'POST', path: '/api/market-categories/cleanup' },
    { method: 'GET', path: '/api/market-classifications' },
    { method: 'PUT', path: '/api/market-classifications', body: { classifications: [{ market_id: 1, categories: ['crypto'] }] } },
    { method: 'DELETE', path: '/api/market-classifications', body: { market_ids: [1] } },
    { method: 'GET', path: `/api/market-classifications/${market}` },
    { method: 'PUT', path: `/api/market-classifications/${market}`, body: { categories: [] } },
    { method: 'DELETE', path: `/api/market-classifications/${market}` },
  ]
}

/** Authorization headers that carry no live session. */
function forgedAuthorization(): [string, string][] {
  switch (int(10)) {
    case 0:
      return []
    case 1:
      return [['Authorization', '']]
    case 2:
      return [['Authorization', pick(['Bearer', 'Bearer ', 'bearer', 'Basic dXNlcjpwYXNz', 'Token x', 'Bearer a b', 'Bearer\t'])]]
    case 3:
      return [bearer(hex(32).slice(2))]
    case 4:
      return [bearer(token.toUpperCase())]
    case 5:
      return [bearer(token.slice(0, -1) + (token.endsWith('0') ? '1' : '0'))]
    case 6:
      return [bearer(token + pick(['0', 'x', '==']))]
    case 7:
      return [bearer('a'.repeat(1 + int(6000)))]
    case 8:
      return [
        [
          'Authorization',
          `Bearer ${Array.from({ length: 1 + int(40) }, () => String.fromCharCode(0x21 + int(0xde)))
            .join('')
            .replace(/[\x7f]/g, '!')}`,
        ],
      ]
    default:
      return [bearer(hex(32).slice(2)), ['Authorization', `Bearer ${hex(32).slice(2)}`]]
  }
}

function unauthenticatedCases(): Case[] {
  const cases: Case[] = []
  for (let i = 0; i < 600; i++) {
    const route = pick(authedRoutes())
    const auth = forgedAuthorization()
    // Routes without a body get one now and then, of any content type; it is never read.
    const body =
      route.body === undefined
        ? chance(0.2)
          ? notJson(toJson(junkValue()))
          : undefined
        : toJson(chance(0.5) ? route.body : mutateFields(route.body as Record<string, unknown>))
    const headers =
      route.body === undefined && body !== undefined
        ? [
            ['Content-Type', pick(['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded', 'text/plain'])] as [
              string,
              string,
            ],
            ...auth,
          ]
        : jsonHeaders(auth)
    cases.push({
      label: `${route.method} ${route.path.split('?')[0]} without a session`,
      make: async () => ({
        method: route.method,
        path: route.path,
        headers,
        ...(body === undefined ? {} : { body }),
        timeoutMs: REQUEST_TIMEOUT_MS,
      }),
      allowed: [UNAUTHENTICATED],
    })
  }
  return cases
}

/** Whether a parsed upload body has the shape of docs/admin.md#key-routes (its field limits restated). */
function uploadShapeOk(v: unknown): boolean {
  if (!isObject(v)) return false
  const str = (x: unknown, max: number) => typeof x === 'string' && x.length <= max
  // A label is printable text: no control, format or separator characters (docs/admin.md#key-routes).
  return (
    str(v.label, 64) &&
    (v.label as string).length >= 1 &&
    !/[\p{C}\p{Zl}\p{Zp}]/u.test(v.label as string) &&
    typeof v.address === 'string' &&
    ADDRESS.test(v.address) &&
    str(v.ephemeral_public_key, 1024) &&
    str(v.iv, 1024) &&
    str(v.ciphertext, 1024) &&
    (v.public_key === undefined || str(v.public_key, 1024))
  )
}

function keyUploadCases(): Case[] {
  const cases: Case[] = []
  const authed = () => jsonHeaders([bearer(token)])
  const request = (body: string | Uint8Array): RawRequest => ({
    method: 'POST',
    path: '/api/keys',
    headers: authed(),
    body,
    timeoutMs: REQUEST_TIMEOUT_MS,
  })
  const PAYLOAD_REFUSED = ['BAD_PAYLOAD', 'DECRYPTION_FAILED']
  for (let i = 0; i < 900; i++) {
    const key = seededKey()
    const valid = {
      label: `fuzz-${i}`,
      address: privateKeyToAccount(key).address,
      ...eciesEncrypt(serverPublicKey, new TextEncoder().encode(key), { ephemeralPrivateKey: bytesOf(seededKey()), iv: bytes(16) }),
    }
    const kind = int(8)
    let body: string | Uint8Array
    let allowed: Allowed[]
    switch (kind) {
      case 0: {
        // wrong types, missing fields, out-of-range lengths, nested junk
        const obj = mutateFields(valid)
        body = toJson(obj)
        const v = parsedBody(body)
        // A mutation that leaves the shape valid only touched the label or added a field: then the
        // upload is valid, so the label is spoiled on purpose.
        if (uploadShapeOk(v)) body = toJson({ ...(v as object), label: '' })
        allowed = [INVALID_REQUEST]
        break
      }
      case 1: // not JSON at all
        body = notJson(toJson(valid))
        allowed = [INVALID_JSON]
        break
      case 2: {
        // a corrupted ECIES field, still within the shape
        const field = pick(['ephemeral_public_key', 'iv', 'ciphertext'] as const)
        const v = valid[field]
        const corrupt = pick([
          () => v.slice(0, 2 + 2 * int((v.length - 2) / 2)),
          () => v + hex(1 + int(8)).slice(2),
          () => {
            const at = 2 + int(v.length - 2)
            return v.slice(0, at) + (v[at] === 'a' ? 'b' : 'a') + v.slice(at + 1)
          },
          () => `0x${hex(int(120)).slice(2)}`,
          () => junkString().slice(0, 1024),
          () => v.slice(2),
          () => `${v}z`,
          () => bytesToHex(secp256k1.getPublicKey(bytesOf(seededKey()), field === 'ephemeral_public_key' ? chance(0.5) : false)),
          () => `0x04${'00'.repeat(64)}`,
          () => '0x00',
          () => '',
        ])()
        // Dropping the 0x prefix leaves the same bytes: that one still decrypts, to a key that does
        // not control a random address.
        const same = corrupt.replace(/^0x/, '').toLowerCase() === v.slice(2)
        body = toJson({ ...valid, [field]: corrupt, ...(same ? { address: randomAddress() } : {}) })
        allowed = [{ status: 400, reasons: same ? ['ADDRESS_MISMATCH'] : PAYLOAD_REFUSED }]
        break
      }
      case 3: {
        // a well-encrypted plaintext that is not a private key
        const text = pick([
          () => junkString().replace(/^\s*(0x)?[0-9a-fA-F]{64}\s*$/, 'x'),
          () => '00'.repeat(32),
          () => 'ff'.repeat(32),
          () => 'FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141',
          () => key.slice(0, 65),
          () => `${key}0`,
          () => `${key.slice(2)}g`,
          () => `0x0x${key.slice(2)}`,
          () => key.replace('0x', '0X'),
        ])()
        const payload = eciesEncrypt(serverPublicKey, new TextEncoder().encode(text))
        body = toJson({ ...valid, ...payload })
        // A long plaintext makes a ciphertext over the field's 1024 characters.
        allowed = [payload.ciphertext.length <= 1024 ? { status: 400, reasons: ['BAD_PLAINTEXT'] } : INVALID_REQUEST]
        break
      }
      case 4: // a good key claimed for another address
        body = toJson({ ...valid, address: randomAddress() })
        allowed = [{ status: 400, reasons: ['ADDRESS_MISMATCH'] }]
        break
      case 5: // encrypted to some other key than this start's
        if (chance(0.5)) {
          body = toJson({
            ...valid,
            public_key: pick([
              bytesToHex(secp256k1.getPublicKey(bytesOf(seededKey()), false)),
              junkString().slice(0, 1024),
              `0x04${'00'.repeat(64)}`,
            ]),
          })
          allowed = [{ status: 400, reasons: ['STALE_SERVER_KEY'] }]
        } else {
          const otherServer = bytesToHex(secp256k1.getPublicKey(bytesOf(seededKey()), false))
          body = toJson({ ...valid, ...eciesEncrypt(otherServer, new TextEncoder().encode(key)) })
          allowed = [{ status: 400, reasons: ['DECRYPTION_FAILED'] }]
        }
        break
      case 6: // the stored key again, under any label: 409 and nothing changes
        body = toJson({
          ...anchorUpload,
          label: junkString().slice(0, 64) || 'x',
          address: randomCase(anchorUpload.address.slice(2)).replace(/^/, '0x'),
        })
        allowed = [{ status: 409, reasons: ['KEY_EXISTS'] }]
        if (!uploadShapeOk(parsedBody(body))) allowed = [INVALID_REQUEST]
        break
      default: // fields far over their limits
        body = toJson({
          ...valid,
          [pick(['label', 'ephemeral_public_key', 'iv', 'ciphertext', 'public_key'])]: pick(['a', '0', 'é']).repeat(
            pick([1025, 5000, 30_000]),
          ),
        })
        allowed = [INVALID_REQUEST]
        break
    }
    cases.push({ label: `POST /api/keys kind ${kind}`, make: async () => request(body), allowed })
  }
  for (let i = 0; i < 6; i++) {
    const size = BODY_MAX_BYTES + 1 + int(8 * BODY_MAX_BYTES)
    cases.push({
      label: `POST /api/keys body of ${size} bytes`,
      make: async () => request(toJson({ label: 'x'.repeat(size) })),
      allowed: [TOO_LARGE],
    })
  }
  return cases
}
function bytesOf(h: Hex): Uint8Array {
  return Uint8Array.from(Buffer.from(h.slice(2), 'hex'))
}

function serviceConfigCases(): Case[] {
  const cases: Case[] = []
  for (let i = 0; i < 400; i++) {
    // Binding an unknown key is refused (400 KEY_NOT_FOUND); every other mutation breaks the shape.
    const base = { service: pick(SERVICES), key_id: chance(0.5) ? randomUuid() : randomUuid().toUpperCase(), enabled: chance(0.5) }
    const kind = int(4)
    let body: string | Uint8Array
    let allowed: Allowed[]
    if (kind === 0) {
      body = toJson(base)
      allowed = [{ status: 400, reasons: ['KEY_NOT_FOUND'] }]
    } else if (kind === 1) {
      body = notJson(toJson(base))
      allowed = [INVALID_JSON]
    } else {
      const field = pick(['service', 'key_id', 'enabled'] as const)
      const junk =
        field === 'service'
          ? pick<unknown>([
              randomCase(pick(SERVICES)),
              ` ${pick(SERVICES)}`,
              `${pick(SERVICES)}\u0000`,
              'hedge',
              'bridge',
              'admin',
              '',
              null,
              1,
              [pick(SERVICES)],
              junkValue(),
            ])
          : field === 'key_id'
            ? pick<unknown>([
                junkString(),
                `{${randomUuid()}}`,
                randomUuid().replace(/-/g, ''),
                0,
                true,
                [anchorId],
                { id: anchorId },
                junkValue(),
              ])
            : pick<unknown>(['true', 'false', 0, 1, null, 'yes', [], junkValue()])
      const obj: Record<string, unknown> = { ...base, [field]: junk }
      if (chance(0.2)) delete obj[pick(['service', 'key_id', 'enabled'])]
      body = toJson(obj)
      const v = parsedBody(body)
      const shapeOk =
        isObject(v) &&
        SERVICES.includes(v.service as string) &&
        (v.key_id === null || (typeof v.key_id === 'string' && UUID.test(v.key_id))) &&
        typeof v.enabled === 'boolean'
      if (shapeOk) body = toJson({ ...(v as object), enabled: 'no' })
      allowed = [INVALID_REQUEST]
    }
    cases.push({
      label: `PUT /api/service-config kind ${kind}`,
      make: async () => ({
        method: 'PUT',
        path: '/api/service-config',
        headers: jsonHeaders([bearer(token)]),
        body,
        timeoutMs: REQUEST_TIMEOUT_MS,
      }),
      allowed,
    })
  }
  return cases
}

/** A path segment of junk: raw (maybe not even valid percent-encoding) or encoded. */
function junkSegment(): string {
  switch (int(6)) {
    case 0:
      return encodeURIComponent(
        junkString()
          .slice(0, 300)
          .replace(/[\ud800-\udfff]/g, '?'),
      )
    case 1:
      return pick(['%', '%zz', '%C0%AF', '%00', '%2F', '%2e%2e', '..', '.', '%FF%FE', '%uD800', '%E0%A4%A', 'a%', '%%', '%25'])
    case 2:
      return 'x'.repeat(pick([100, 1000, 4000]))
    case 3:
      return randomUuid() + pick(['', '%20', '%00', '/', '/x', '.json'])
    case 4:
      return encodeURIComponent(pick(['😀', 'é', '\u202e', '\u0000', ' ']))
    default:
      return Array.from({ length: 1 + int(20) }, () => pick([..."abcXYZ019-_.~!$&'()*+,;=:@"])).join('')
  }
}

function pathCases(): Case[] {
  const cases: Case[] = []
  const authed = () => [bearer(token)] as [string, string][]
  // DELETE /api/keys/{junk}: no such key (404), or the bound anchor in another case (409).
  for (let i = 0; i < 250; i++) {
    const seg = chance(0.15) ? pick([anchorId.toUpperCase(), randomCase(anchorId)]) : junkSegment()
    const isAnchor = seg.toLowerCase() === anchorId
    const query = chance(0.2) ? `?${junkSegment()}=${junkSegment()}` : ''
    cases.push({
      label: 'DELETE /api/keys/{junk}',
      make: async () => ({ method: 'DELETE', path: `/api/keys/${seg}${query}`, headers: authed(), timeoutMs: REQUEST_TIMEOUT_MS }),
      allowed: isAnchor ? [{ status: 409, reasons: ['KEY_BOUND'] }] : [{ status: 404, reasons: ['KEY_NOT_FOUND', 'NOT_FOUND'] }],
    })
  }
  // GET /api/audit with junk paging: digits 1..16 long are paging, anything else is a bad request.
  for (let i = 0; i < 200; i++) {
    const value = () =>
      pick([
        String(1 + int(500)),
        '0',
        '-1',
        '1.5',
        '1e3',
        'abc',
        '',
        '9'.repeat(16),
        '9'.repeat(17),
        '%zz',
        '%00',
        junkSegment(),
        '01',
        '%201',
        '1%20',
        '+1',
      ])
    const params: [string, string][] = []
    for (let n = int(4); n > 0; n--) params.push([pick(['limit', 'before_id', 'limit', 'x', '__proto__', junkSegment()]), value()])
    const query = params.map(([k, v]) => `${k}=${v}`).join('&')
    const digits = (s: string) => /^[1-9][0-9]{0,15}$/.test(s)
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '))
    // A malformed escape leaves what the service reads open.
    const odd = params.some(([k, v]) => {
      try {
        decode(k)
        decode(v)
        return false
      } catch {
        return true
      }
    })
    const named = (k: string) => (odd ? [] : params.filter(([p]) => decode(p) === k).map(([, v]) => decode(v)))
    // A repeated parameter counts with its last value.
    const ok = ['limit', 'before_id'].every((k) => named(k).length === 0 || digits(named(k).at(-1)!))
    cases.push({
      label: 'GET /api/audit?{junk}',
      make: async () => ({ method: 'GET', path: `/api/audit?${query}`, headers: authed(), timeoutMs: REQUEST_TIMEOUT_MS }),
      allowed: odd ? [{ status: 200 }, INVALID_REQUEST] : ok ? [{ status: 200 }] : [INVALID_REQUEST],
      checkOk: (b) =>
        Array.isArray(b?.entries) && (b.next_before_id === null || Number.isSafeInteger(b.next_before_id))
          ? undefined
          : `audit page ${JSON.stringify(b).slice(0, 200)}`,
    })
  }
  // Reads with junk query strings still read.
  for (let i = 0; i < 60; i++) {
    const path = pick(['/api/keys', '/api/service-config', '/api/health', '/api/keys/encryption-key', '/api/auth/me'])
    cases.push({
      label: `GET ${path}?{junk}`,
      make: async () => ({
        method: 'GET',
        path: `${path}?${junkSegment()}=${junkSegment()}`,
        headers: authed(),
        timeoutMs: REQUEST_TIMEOUT_MS,
      }),
      allowed: [{ status: 200 }],
    })
  }
  // Unknown paths and methods: JSON 404.
  const unserved = ['/api/v1/query', '/api/hedge', `/api/hedge/${junkSegment()}x/${junkSegment()}`, '/api/hedge/orders/reconcile/x']
  for (let i = 0; i < 200; i++) {
    const path = chance(0.5) ? pick(unserved) : `/api/${junkSegment()}${chance(0.3) ? `/${junkSegment()}` : ''}`
    const method = pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])
    const body = method === 'GET' || method === 'OPTIONS' || chance(0.3) ? undefined : toJson(junkValue())
    cases.push({
      label: `${method} {unserved path}`,
      make: async () => ({
        method,
        path,
        headers: chance(0.5) ? authed() : [],
        ...(body === undefined ? {} : { body }),
        timeoutMs: REQUEST_TIMEOUT_MS,
      }),
      allowed: [NO_ROUTE, { status: 405, reasons: ['METHOD_NOT_ALLOWED'] }],
    })
  }
  // Known paths with methods they do not take.
  for (const [method, path] of [
    ['POST', '/api/health'],
    ['PUT', '/api/keys'],
    ['PATCH', '/api/keys'],
    ['POST', '/api/auth/challenge'],
    ['GET', '/api/auth/login'],
    ['DELETE', '/api/service-config'],
    ['POST', '/api/audit'],
    ['POST', '/api/keys/encryption-key'],
    ['PATCH', '/api/hedge/config'],
    ['GET', '/api/hedge/orders/reconcile'],
    ['POST', '/api/hedge/book-b-stats'],
    ['PATCH', '/api/hedge/policies'],
  ] as const) {
    cases.push({
      label: `${method} ${path}`,
      make: async () => ({ method, path, headers: [bearer(token)], timeoutMs: REQUEST_TIMEOUT_MS }),
      allowed: [NO_ROUTE, { status: 405, reasons: ['METHOD_NOT_ALLOWED'] }],
    })
  }
  return cases
}

// ---------------------------------------------------------------------------------------------
// Market categories and the catalog (docs/admin.md#market-categories-and-catalog). Every case is
// refused, so the tables stay as the anchor left them: shape-valid bodies are pointed at ids that
// do not exist, or spoiled on purpose (a removed code, a symbol both added and removed); a sync
// import or preview, which would ask the venue, is only sent without a session or with a bad body.

const CATEGORY_CODE = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/
const CATALOG_SYMBOL = /^[A-Za-z0-9]{1,10}-[A-Za-z0-9]{1,9}$/
const printableName = (v: unknown) => typeof v === 'string' && v.length >= 1 && v.length <= 64 && !/[\p{C}\p{Zl}\p{Zp}]/u.test(v)
const codeOk = (v: unknown) => typeof v === 'string' && CATEGORY_CODE.test(v)
const symbolsOk = (v: unknown) => Array.isArray(v) && v.length <= 500 && v.every((s) => typeof s === 'string' && CATALOG_SYMBOL.test(s))
const parentOk = (v: unknown) => v === undefined || v === null || (Number.isSafeInteger(v) && (v as number) >= 1)
const sortOk = (v: unknown) => v === undefined || (Number.isInteger(v) && Math.abs(v as number) <= 1_000_000)
const boolOk = (v: unknown) => v === undefined || typeof v === 'boolean'
const marketIdOk = (v: unknown) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 2 ** 32 - 1
const categoriesOk = (v: unknown) => Array.isArray(v) && v.length <= 2 && v.every(codeOk)
/** Known fields only: the service ignores the others. */
const known = (v: Record<string, unknown>, fields: readonly string[]) => fields.filter((f) => v[f] !== undefined)

/** Whether a parsed body has each route's shape (docs/admin.md#category-routes, the schemas restated). */
const categoryShapes = {
  create: (v: unknown) =>
    isObject(v) && codeOk(v.code) && printableName(v.name) && parentOk(v.parent_id) && boolOk(v.enabled) && sortOk(v.sort_order),
  update: (v: unknown) =>
    isObject(v) &&
    known(v, ['code', 'name', 'parent_id', 'enabled', 'sort_order']).length > 0 &&
    (v.code === undefined || codeOk(v.code)) &&
    (v.name === undefined || printableName(v.name)) &&
    parentOk(v.parent_id) &&
    boolOk(v.enabled) &&
    sortOk(v.sort_order),
  markets: (v: unknown) =>
    isObject(v) &&
    known(v, ['add', 'remove']).length > 0 &&
    (v.add === undefined || symbolsOk(v.add)) &&
    (v.remove === undefined || symbolsOk(v.remove)),
  import: (v: unknown) => isObject(v) && Array.isArray(v.codes) && v.codes.length >= 1 && v.codes.length <= 100 && v.codes.every(codeOk),
  classification: (v: unknown) => isObject(v) && categoriesOk(v.categories),
  classifications: (v: unknown) =>
    isObject(v) &&
    Array.isArray(v.classifications) &&
    v.classifications.length >= 1 &&
    v.classifications.length <= 500 &&
    v.classifications.every((c) => isObject(c) && marketIdOk(c.market_id) && categoriesOk(c.categories)),
  unclassify: (v: unknown) =>
    isObject(v) && Array.isArray(v.market_ids) && v.market_ids.length >= 1 && v.market_ids.length <= 500 && v.market_ids.every(marketIdOk),
}

/**
 * A path segment that names no category or market but reaches the route: junk, validly
 * percent-encoded, without a slash, never digits only, never empty or a dot segment.
 */
function junkId(): string {
  let seg = junkSegment().replace(/\//g, '_')
  let decoded: string
  try {
    decoded = decodeURIComponent(seg)
  } catch {
    seg = encodeURIComponent(seg)
    decoded = decodeURIComponent(seg)
  }
  return /^[0-9]*$/.test(decoded) || /^\.{1,2}$/.test(decoded) || /^%2e/i.test(seg) ? `x${seg}` : seg
}

/** Ids of a market the development node does not list. */
const unknownMarketId = () => 1_000_000 + int(2 ** 31)
const randomSymbol = () => `${randomCase(hex(3).slice(2))}-usd`

function categoryBodyCases(): Case[] {
  const cases: Case[] = []
  const authed = jsonHeaders([bearer(token)])
  const req = (method: string, path: string, body: string | Uint8Array): RawRequest => ({
    method,
    path,
    headers: authed,
    body,
    timeoutMs: REQUEST_TIMEOUT_MS,
  })
  /** A mutated body: not JSON (400 INVALID_JSON), the wrong shape (400 INVALID_REQUEST), or the right shape (`whenValid`). */
  const mutated = (
    label: string,
    method: string,
    path: () => string,
    base: Record<string, unknown>,
    shapeOk: (v: unknown) => boolean,
    whenValid: (v: Record<string, unknown>) => { body: unknown; allowed: Allowed[] },
  ) => {
    const text = toJson(mutateFields(base))
    let body: string | Uint8Array = chance(0.15) ? notJson(text) : text
    const v = parsedBody(body)
    let allowed: Allowed[] = [v === INVALID ? INVALID_JSON : INVALID_REQUEST]
    if (v !== INVALID && shapeOk(v)) {
      const valid = whenValid(v as Record<string, unknown>)
      body = toJson(valid.body)
      allowed = valid.allowed
    }
    const p = path()
    cases.push({ label, make: async () => req(method, p, body), allowed })
  }
  for (let i = 0; i < 100; i++)
    mutated(
      'POST /api/market-categories',
      'POST',
      () => '/api/market-categories',
      { code: `c${i}`, name: `Cat ${i}`, parent_id: chance(0.5) ? null : fuzzTopId, enabled: chance(0.5), sort_order: int(100) },
      categoryShapes.create,
      // A removed code is refused before anything else about the body.
      (v) => ({ body: { ...v, code: randomCase('preipo') }, allowed: [{ status: 400, reasons: ['CATEGORY_REMOVED'] }] }),
    )
  for (let i = 0; i < 20; i++) {
    const code = pick(['crypto', 'TRADFI', 'FuzzTop', 'fuzzsub'])
    cases.push({
      label: `POST /api/market-categories existing ${code}`,
      make: async () => req('POST', '/api/market-categories', toJson({ code, name: 'x' })),
      allowed: [{ status: 409, reasons: ['CATEGORY_EXISTS'] }],
    })
  }
  for (let i = 0; i < 10; i++) {
    const parent = pick([fuzzSubId, 900_000 + int(1e6)])
    cases.push({
      label: 'POST /api/market-categories bad parent',
      make: async () => req('POST', '/api/market-categories', toJson({ code: `p${i}`, name: 'x', parent_id: parent })),
      allowed: [{ status: 400, reasons: [parent === fuzzSubId ? 'PARENT_NOT_TOP_LEVEL' : 'PARENT_NOT_FOUND'] }],
    })
  }
  for (let i = 0; i < 80; i++) {
    const real = chance(0.3)
    mutated(
      `PUT /api/market-categories/{${real ? 'id' : 'junk'}}`,
      'PUT',
      () => `/api/market-categories/${real ? fuzzTopId : junkId()}`,
      { name: 'x', sort_order: 1, enabled: true },
      categoryShapes.update,
      (v) =>
        real
          ? { body: { ...v, code: 'PreIpo' }, allowed: [{ status: 400, reasons: ['CATEGORY_REMOVED'] }] }
          : { body: v, allowed: [{ status: 404, reasons: ['CATEGORY_NOT_FOUND', 'NOT_FOUND'] }] },
    )
  }
  for (let i = 0; i < 80; i++) {
    const real = chance(0.4)
    mutated(
      `POST /api/market-categories/{${real ? 'id' : 'junk'}}/markets`,
      'POST',
      () => `/api/market-categories/${real ? fuzzTopId : junkId()}/markets`,
      { add: [randomSymbol()], remove: [randomSymbol()] },
      categoryShapes.markets,
      (v) => {
        if (!real) return { body: v, allowed: [{ status: 404, reasons: ['CATEGORY_NOT_FOUND', 'NOT_FOUND'] }] }
        const s = randomSymbol()
        return {
          body: { add: [...((v.add as string[]) ?? []), s], remove: [s.toUpperCase()] },
          allowed: [{ status: 400, reasons: ['SYMBOL_TWICE'] }],
        }
      },
    )
  }
  for (let i = 0; i < 40; i++)
    mutated(
      'POST /api/market-categories/sync/import',
      'POST',
      () => '/api/market-categories/sync/import',
      { codes: ['stocks'] },
      categoryShapes.import,
      // A valid import would ask the venue: spoiled into an empty list.
      () => ({ body: { codes: [] }, allowed: [INVALID_REQUEST] }),
    )
  for (let i = 0; i < 40; i++)
    mutated(
      'PUT /api/market-classifications/{junk}',
      'PUT',
      () => `/api/market-classifications/${junkId()}`,
      { categories: ['crypto'] },
      categoryShapes.classification,
      (v) => ({ body: v, allowed: [{ status: 404, reasons: ['MARKET_NOT_FOUND', 'NOT_FOUND'] }] }),
    )
  for (let i = 0; i < 40; i++)
    mutated(
      'PUT /api/market-classifications',
      'PUT',
      () => '/api/market-classifications',
      { classifications: [{ market_id: unknownMarketId(), categories: ['crypto'] }] },
      categoryShapes.classifications,
      // Only unknown, distinct markets: 404, and nothing written.
      (v) => {
        const items = v.classifications as { categories: string[] }[]
        return {
          body: { classifications: items.map((c, k) => ({ market_id: 3_000_000 + k, categories: c.categories })) },
          allowed: [{ status: 404, reasons: ['MARKET_NOT_FOUND'] }],
        }
      },
    )
  for (let i = 0; i < 40; i++)
    mutated(
      'DELETE /api/market-classifications',
      'DELETE',
      () => '/api/market-classifications',
      { market_ids: [unknownMarketId()] },
      categoryShapes.unclassify,
      (v) => {
        const ids = v.market_ids as number[]
        return chance(0.5) && ids.length > 0
          ? { body: { market_ids: [...ids, ids[0]] }, allowed: [{ status: 400, reasons: ['MARKET_TWICE'] }] }
          : { body: { market_ids: ids.map((_, k) => 3_000_000 + k) }, allowed: [{ status: 404, reasons: ['MARKET_NOT_FOUND'] }] }
      },
    )
  // Fields far over their limits, and bodies over the size limit.
  const over = () => pick(['a', '0', 'é']).repeat(pick([65, 1025, 30_000]))
  for (let i = 0; i < 30; i++) {
    const which = int(4)
    const body =
      which === 0
        ? { code: over(), name: 'x' }
        : which === 1
          ? { code: 'ok', name: over() }
          : which === 2
            ? { add: Array.from({ length: 501 + int(200) }, (_, k) => `s${k}-usd`) }
            : { codes: Array.from({ length: 101 + int(50) }, (_, k) => `c${k}`) }
    const path =
      which < 2
        ? '/api/market-categories'
        : which === 2
          ? `/api/market-categories/${fuzzTopId}/markets`
          : '/api/market-categories/sync/import'
    cases.push({ label: `POST ${path} over its limits`, make: async () => req('POST', path, toJson(body)), allowed: [INVALID_REQUEST] })
  }
  for (let i = 0; i < 8; i++) {
    const size = BODY_MAX_BYTES + 1 + int(4 * BODY_MAX_BYTES)
    const [method, path] = pick([
      ['POST', '/api/market-categories'],
      ['PUT', `/api/market-categories/${fuzzTopId}`],
      ['POST', `/api/market-categories/${fuzzTopId}/markets`],
      ['POST', '/api/market-categories/sync/import'],
      ['PUT', '/api/market-classifications'],
    ] as const)
    cases.push({
      label: `${method} ${path} body of ${size} bytes`,
      make: async () => req(method, path, toJson({ name: 'x'.repeat(size) })),
      allowed: [TOO_LARGE],
    })
  }
  return cases
}

function categoryPathCases(): Case[] {
  const cases: Case[] = []
  const authed = () => [bearer(token)] as [string, string][]
  // DELETE of a category that has a sub-category: 409; of junk ids: 404.
  for (let i = 0; i < 50; i++) {
    const real = chance(0.2)
    const path = real ? `/api/market-categories/${fuzzTopId}` : `/api/market-categories/${junkId()}`
    cases.push({
      label: `DELETE /api/market-categories/{${real ? 'parent' : 'junk'}}`,
      make: async () => ({ method: 'DELETE', path, headers: authed(), timeoutMs: REQUEST_TIMEOUT_MS }),
      allowed: real
        ? [{ status: 409, reasons: ['CATEGORY_HAS_CHILDREN'] }]
        : [{ status: 404, reasons: ['CATEGORY_NOT_FOUND', 'NOT_FOUND'] }],
    })
  }
  for (let i = 0; i < 40; i++) {
    const method = pick(['GET', 'DELETE'])
    cases.push({
      label: `${method} /api/market-classifications/{junk}`,
      make: async () => ({ method, path: `/api/market-classifications/${junkId()}`, headers: authed(), timeoutMs: REQUEST_TIMEOUT_MS }),
      allowed: [{ status: 404, reasons: ['MARKET_NOT_FOUND', 'NOT_FOUND'] }],
    })
  }
  // Catalog reads with junk queries: a named parameter out of its form is 400, the rest read.
  const forms: Record<string, RegExp> = {
    source: /^(ext|manual|seed)$/,
    category: CATEGORY_CODE,
    symbol: CATALOG_SYMBOL,
  }
  for (let i = 0; i < 100; i++) {
    const isPublic = chance(0.4)
    const path = isPublic ? '/api/public/market-catalog' : '/api/market-catalog'
    const names = isPublic ? ['symbol'] : ['source', 'category', 'symbol']
    const params: [string, string][] = []
    for (let n = int(3); n > 0; n--)
      params.push([
        pick([...names, ...names, 'x', junkSegment()]),
        pick(['ext', 'seed', 'EXT', 'crypto', 'Crypto', 'BTC-USD', 'btc-usd', 'btc', '1', 'a-b-c', '%zz', junkSegment()]),
      ])
    const query = params.map(([k, v]) => `${k}=${v}`).join('&')
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '))
    const odd = params.some(([k, v]) => {
      try {
        decode(k)
        decode(v)
        return false
      } catch {
        return true
      }
    })
    const named = (k: string) => (odd ? [] : params.filter(([p]) => decode(p) === k).map(([, v]) => decode(v)))
    // A repeated parameter counts with its last value; an empty one may read as absent.
    const verdicts = names.map((k) => {
      const last = named(k).at(-1)
      return last === undefined ? 'ok' : last === '' ? 'either' : forms[k]!.test(last) ? 'ok' : 'bad'
    })
    const allowed =
      odd || verdicts.includes('either')
        ? [{ status: 200 }, INVALID_REQUEST]
        : verdicts.includes('bad')
          ? [INVALID_REQUEST]
          : [{ status: 200 }]
    cases.push({
      label: `GET ${path}?{junk}`,
      make: async () => ({ method: 'GET', path: `${path}?${query}`, headers: isPublic ? [] : authed(), timeoutMs: REQUEST_TIMEOUT_MS }),
      allowed,
      checkOk: (b) => (Array.isArray(b?.markets) ? undefined : `catalog ${JSON.stringify(b).slice(0, 200)}`),
    })
  }
  // The other reads, with or without a session, junk query strings or not.
  for (let i = 0; i < 40; i++) {
    const path = pick([
      '/api/public/market-categories',
      '/api/public/market-classifications',
      '/api/market-categories',
      '/api/market-classifications',
    ])
    const isPublic = path.startsWith('/api/public/')
    cases.push({
      label: `GET ${path}?{junk}`,
      make: async () => ({
        method: 'GET',
        path: `${path}${chance(0.5) ? `?${junkSegment()}=${junkSegment()}` : ''}`,
        headers: isPublic && chance(0.5) ? [] : authed(),
        timeoutMs: REQUEST_TIMEOUT_MS,
      }),
      allowed: [{ status: 200 }],
    })
  }
  return cases
}

// ---------------------------------------------------------------------------------------------
// Hedging (docs/admin.md#hedging). Every case is refused, so the hedge tables stay as the anchor
// left them: shape-valid bodies are pointed at ids that do not exist or spoiled on purpose; a
// reconciliation (which writes its audit row) is only sent without a session.

const HEDGE_DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]{1,8})?$/
const hedgeDecimal = (v: unknown) => typeof v === 'string' && v.length <= 40 && HEDGE_DECIMAL.test(v)
const hedgeShapes = {
  ciphertext: (v: unknown) =>
    isObject(v) &&
    Object.keys(v).every((k) => ['ephemeral_public_key', 'iv', 'ciphertext'].includes(k)) &&
    ['ephemeral_public_key', 'iv', 'ciphertext'].every((k) => typeof v[k] === 'string' && (v[k] as string).length <= 1024),
  publicKey: (v: unknown) => v === undefined || (typeof v === 'string' && v.length <= 1024),
  create: (v: unknown) =>
    isObject(v) && printableName(v.name) && hedgeShapes.ciphertext(v.ciphertext) && hedgeShapes.publicKey(v.public_key),
  update: (v: unknown) =>
    isObject(v) &&
    known(v, ['name', 'ciphertext', 'enabled']).length > 0 &&
    (v.name === undefined || printableName(v.name)) &&
    (v.ciphertext === undefined || hedgeShapes.ciphertext(v.ciphertext)) &&
    boolOk(v.enabled) &&
    hedgeShapes.publicKey(v.public_key),
  policy: (v: unknown) =>
    isObject(v) &&
    typeof v.market_symbol === 'string' &&
    CATALOG_SYMBOL.test(v.market_symbol) &&
    hedgeDecimal(v.hedge_ratio) &&
    (v.hedge_mode === 'follow' || v.hedge_mode === 'reverse') &&
    (v.account_id === undefined || v.account_id === null || (typeof v.account_id === 'string' && UUID.test(v.account_id))) &&
    typeof v.enabled === 'boolean' &&
    ['threshold_notional', 'min_order_sz', 'max_order_sz'].every((k) => v[k] === undefined || v[k] === null || hedgeDecimal(v[k])),
  config: (v: unknown) =>
    isObject(v) &&
    (v.interval_ms === undefined ||
      (Number.isInteger(v.interval_ms) && (v.interval_ms as number) >= 500 && (v.interval_ms as number) <= 3_600_000)) &&
    (v.threshold_notional === undefined || hedgeDecimal(v.threshold_notional)) &&
    (v.min_order_sz === undefined || hedgeDecimal(v.min_order_sz)) &&
    (v.max_slippage_bps === undefined ||
      (Number.isInteger(v.max_slippage_bps) && (v.max_slippage_bps as number) >= 0 && (v.max_slippage_bps as number) <= 2000)) &&
    boolOk(v.dry_run) &&
    (v.ext_network === undefined || v.ext_network === 'mainnet' || v.ext_network === 'testnet'),
}

/** A body without its public_key (a junk one would be refused as a stale server key first). */
function withoutPublicKey(v: Record<string, unknown>): Record<string, unknown> {
  const { public_key: _, ...rest } = v
  return rest
}

function hedgeCases(): Case[] {
  const cases: Case[] = []
  const authed = jsonHeaders([bearer(token)])
  const req = (method: string, path: string, body: string | Uint8Array): RawRequest => ({
    method,
    path,
    headers: authed,
    body,
    timeoutMs: REQUEST_TIMEOUT_MS,
  })
  const mutated = (
    label: string,
    method: string,
    path: string,
    base: Record<string, unknown>,
    shapeOk: (v: unknown) => boolean,
    whenValid: (v: Record<string, unknown>) => { body: unknown; allowed: Allowed[] },
  ) => {
    const text = toJson(mutateFields(base))
    let body: string | Uint8Array = chance(0.15) ? notJson(text) : text
    const v = parsedBody(body)
    let allowed: Allowed[] = [v === INVALID ? INVALID_JSON : INVALID_REQUEST]
    if (v !== INVALID && shapeOk(v)) {
      const valid = whenValid(v as Record<string, unknown>)
      body = toJson(valid.body)
      allowed = valid.allowed
    }
    cases.push({ label, make: async () => req(method, path, body), allowed })
  }
  const PAYLOAD_REFUSED = ['BAD_PAYLOAD', 'DECRYPTION_FAILED']
  for (let i = 0; i < 150; i++) {
    const key = seededKey()
    const valid = { name: `h${i}`, ciphertext: eciesEncrypt(serverPublicKey, new TextEncoder().encode(key)) }
    const kind = int(4)
    if (kind === 0)
      // Junk fields; a body that keeps its shape is pointed at the anchor's key: the same address.
      mutated('POST /api/hedge/accounts', 'POST', '/api/hedge/accounts', valid, hedgeShapes.create, (v) => ({
        body: { name: v.name, ciphertext: hedgeAnchorCiphertext },
        allowed: [{ status: 400, reasons: ['DUPLICATE_ADDRESS'] }],
      }))
    else if (kind === 1) {
      // A corrupted ECIES field.
      const field = pick(['ephemeral_public_key', 'iv', 'ciphertext'] as const)
      const v = valid.ciphertext[field]
      const corrupt = pick([() => v.slice(0, 10), () => `${v}ab`, () => `0x${hex(int(60)).slice(2)}`, () => '', () => '0x00'])()
      cases.push({
        label: 'POST /api/hedge/accounts corrupted ciphertext',
        make: async () => req('POST', '/api/hedge/accounts', toJson({ ...valid, ciphertext: { ...valid.ciphertext, [field]: corrupt } })),
        allowed: [{ status: 400, reasons: PAYLOAD_REFUSED }],
      })
    } else if (kind === 2) {
      // Well encrypted, but not a private key.
      const text = pick(['', 'x', '00'.repeat(32), key.slice(0, 40), `${key}0`])
      cases.push({
        label: 'POST /api/hedge/accounts not a key',
        make: async () =>
          req(
            'POST',
            '/api/hedge/accounts',
            toJson({ ...valid, ciphertext: eciesEncrypt(serverPublicKey, new TextEncoder().encode(text)) }),
          ),
        allowed: [{ status: 400, reasons: ['BAD_PLAINTEXT'] }],
      })
    } else {
      const real = chance(0.5)
      const id = real ? hedgeAnchorId : chance(0.5) ? randomUuid() : junkId()
      mutated(
        `PUT /api/hedge/accounts/{${real ? 'id' : 'junk'}}`,
        'PUT',
        `/api/hedge/accounts/${id}`,
        { name: 'x', enabled: true },
        hedgeShapes.update,
        (v) =>
          real
            ? {
                body: { ...withoutPublicKey(v), ciphertext: { ...hedgeAnchorCiphertext, iv: '0x00' } },
                allowed: [{ status: 400, reasons: PAYLOAD_REFUSED }],
              }
            : { body: v, allowed: [{ status: 404, reasons: ['HEDGE_ACCOUNT_NOT_FOUND', 'NOT_FOUND'] }] },
      )
    }
  }
  for (let i = 0; i < 120; i++)
    mutated(
      'PUT /api/hedge/policies',
      'PUT',
      '/api/hedge/policies',
      {
        market_symbol: pick(['XAU-USD', 'btc-usd', 'AB-C']),
        hedge_ratio: pick(['1', '0.5', '10']),
        hedge_mode: pick(['follow', 'reverse']),
        enabled: chance(0.5),
        ...(chance(0.3) ? { min_order_sz: '0.1', max_order_sz: '5' } : {}),
        ...(chance(0.3) ? { account_id: hedgeAnchorId } : {}),
      },
      hedgeShapes.policy,
      // Valid shapes are spoiled: a ratio past 10, an unknown account, or a maximum under the minimum.
      (v) => ({
        body: pick([
          { ...v, hedge_ratio: pick(['10.00000001', '11', '999']) },
          { ...v, account_id: randomUuid() },
          { ...v, min_order_sz: '2', max_order_sz: '1' },
          { ...v, max_order_sz: '0' },
        ]),
        allowed: [INVALID_REQUEST],
      }),
    )
  for (let i = 0; i < 80; i++)
    mutated(
      'PUT /api/hedge/config',
      'PUT',
      '/api/hedge/config',
      { interval_ms: 1000, dry_run: true, ext_network: 'testnet' },
      hedgeShapes.config,
      (v) => ({
        body: { ...v, ...pick([{ interval_ms: pick([-1, 499, 3_600_001, 1.5]) }, { max_slippage_bps: pick([-1, 2001, 1.5]) }]) },
        allowed: [INVALID_REQUEST],
      }),
    )
  for (let i = 0; i < 60; i++) {
    const path = `/api/hedge/${pick(['accounts', 'policies'])}/${junkId()}`
    const decoded = (() => {
      try {
        return decodeURIComponent(path.split('/').pop()!)
      } catch {
        return ''
      }
    })()
    if (decoded.toUpperCase() === 'XAU-USD' || decoded.toLowerCase() === hedgeAnchorId) continue
    cases.push({
      label: `DELETE ${path.split('/').slice(0, 4).join('/')}/{junk}`,
      make: async () => ({ method: 'DELETE', path, headers: [bearer(token)], timeoutMs: REQUEST_TIMEOUT_MS }),
      allowed: [{ status: 404, reasons: ['HEDGE_ACCOUNT_NOT_FOUND', 'POLICY_NOT_FOUND', 'NOT_FOUND'] }],
    })
  }
  // Order pages with junk queries: a named parameter out of its form is 400, the rest read.
  const forms: Record<string, (s: string) => boolean> = {
    account_id: (s) => UUID.test(s),
    symbol: (s) => CATALOG_SYMBOL.test(s),
    limit: (s) => /^(0|[1-9][0-9]{0,8})$/.test(s) && Number(s) >= 1 && Number(s) <= 500,
    offset: (s) => /^(0|[1-9][0-9]{0,8})$/.test(s),
  }
  for (let i = 0; i < 100; i++) {
    const params: [string, string][] = []
    for (let n = int(4); n > 0; n--)
      params.push([
        pick(['account_id', 'symbol', 'limit', 'offset', 'x', junkSegment()]),
        pick(['0', '1', '50', '500', '501', '-1', '1e3', '01', hedgeAnchorId, randomUuid(), 'XAU-USD', 'xau', '%zz', '', junkSegment()]),
      ])
    const query = params.map(([k, v]) => `${k}=${v}`).join('&')
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '))
    const odd = params.some(([k, v]) => {
      try {
        decode(k)
        decode(v)
        return false
      } catch {
        return true
      }
    })
    const named = (k: string) => (odd ? [] : params.filter(([p]) => decode(p) === k).map(([, v]) => decode(v)))
    const verdicts = Object.keys(forms).map((k) => {
      const last = named(k).at(-1)
      return last === undefined ? 'ok' : last === '' ? 'either' : forms[k]!(last) ? 'ok' : 'bad'
    })
    cases.push({
      label: 'GET /api/hedge/orders?{junk}',
      make: async () => ({ method: 'GET', path: `/api/hedge/orders?${query}`, headers: [bearer(token)], timeoutMs: REQUEST_TIMEOUT_MS }),
      allowed:
        odd || verdicts.includes('either')
          ? [{ status: 200 }, INVALID_REQUEST]
          : verdicts.includes('bad')
            ? [INVALID_REQUEST]
            : [{ status: 200 }],
      checkOk: (b) => (Array.isArray(b?.orders) && b.total === 0 ? undefined : `orders page ${JSON.stringify(b).slice(0, 200)}`),
    })
  }
  // The reads, with junk query strings or not.
  for (let i = 0; i < 30; i++) {
    const path = pick(['/api/hedge/accounts', '/api/hedge/policies', '/api/hedge/config', '/api/hedge/book-b-stats'])
    cases.push({
      label: `GET ${path}?{junk}`,
      make: async () => ({
        method: 'GET',
        path: `${path}${chance(0.5) ? `?${junkSegment()}=${junkSegment()}` : ''}`,
        headers: [bearer(token)],
        timeoutMs: REQUEST_TIMEOUT_MS,
      }),
      allowed: [{ status: 200 }],
      checkOk: (b) => (JSON.stringify(b).includes(hedgeAnchorKey.slice(2)) ? 'a private key in a reply' : undefined),
    })
  }
  // Fields far over their limits, and bodies over the size limit.
  const over = () => pick(['a', '0', 'é']).repeat(pick([65, 1025, 30_000]))
  for (let i = 0; i < 20; i++) {
    const [method, path, body] = pick([
      ['POST', '/api/hedge/accounts', { name: over(), ciphertext: hedgeAnchorCiphertext }],
      ['POST', '/api/hedge/accounts', { name: 'x', ciphertext: { ...hedgeAnchorCiphertext, ciphertext: `0x${'ab'.repeat(600)}` } }],
      ['PUT', `/api/hedge/accounts/${hedgeAnchorId}`, { name: over() }],
      ['PUT', '/api/hedge/policies', { market_symbol: over(), hedge_ratio: '1', hedge_mode: 'follow', enabled: true }],
      ['PUT', '/api/hedge/policies', { market_symbol: 'XAU-USD', hedge_ratio: `1.${'0'.repeat(60)}`, hedge_mode: 'follow', enabled: true }],
      ['PUT', '/api/hedge/config', { threshold_notional: '9'.repeat(41) }],
    ] as const)
    cases.push({
      label: `${method} ${path.split('/').slice(0, 4).join('/')} over its limits`,
      make: async () => req(method, path, toJson(body)),
      allowed: [INVALID_REQUEST],
    })
  }
  for (let i = 0; i < 6; i++) {
    const size = BODY_MAX_BYTES + 1 + int(4 * BODY_MAX_BYTES)
    const [method, path] = pick([
      ['POST', '/api/hedge/accounts'],
      ['PUT', `/api/hedge/accounts/${hedgeAnchorId}`],
      ['PUT', '/api/hedge/policies'],
      ['PUT', '/api/hedge/config'],
    ] as const)
    cases.push({
      label: `${method} hedge body of ${size} bytes`,
      make: async () => req(method, path, toJson({ name: 'x'.repeat(size) })),
      allowed: [TOO_LARGE],
    })
  }
  return cases
}

/** Shuffles in place with the seeded PRNG (Fisher–Yates). */
function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = int(i + 1)
    ;[items[i], items[j]] = [items[j]!, items[i]!]
  }
  return items
}

// ---------------------------------------------------------------------------------------------

test('every bad or odd input gets the status and {error, reason} body the spec gives, promptly', async () => {
  const cases = shuffle([
    ...loginCases(),
    ...unauthenticatedCases(),
    ...keyUploadCases(),
    ...serviceConfigCases(),
    ...pathCases(),
    ...categoryBodyCases(),
    ...categoryPathCases(),
    ...hedgeCases(),
  ])
  const started = Date.now()
  const { failures, statuses } = await runCases(cases)
  console.log(
    `admin fuzz seed ${SEED}: ${cases.length} requests in ${Date.now() - started} ms; statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  )
  if (failures.length > 0)
    console.error(
      `admin fuzz seed ${SEED}: ${failures.length} failures (rerun with ADMIN_FUZZ_SEED=${SEED}):\n${failures.slice(0, 40).join('\n')}`,
    )
  expect(failures).toEqual([])
}, 60_000)

test('regressions the fuzz found: no session is 401 before the body is read; a body that is not UTF-8 is invalid JSON', async () => {
  const send = (method: string, path: string, headers: [string, string][], body: string | Uint8Array | undefined) =>
    rawRequest(A, { method, path, headers, ...(body === undefined ? {} : { body }), timeoutMs: REQUEST_TIMEOUT_MS })
  const reasons = async (r: Promise<RawReply>) => {
    const reply = await r
    return `${reply.status} ${JSON.parse(reply.text).reason}`
  }
  const notUtf8 = new Uint8Array([...new TextEncoder().encode('{"label":"a'), 0xff, 0xfe, ...new TextEncoder().encode('"}')])
  for (const path of ['/api/keys', '/api/service-config']) {
    const method = path === '/api/keys' ? 'POST' : 'PUT'
    for (const body of ['{}', '[]', '{"service":"nope"}', '{nope', '', notUtf8, undefined]) {
      expect(await reasons(send(method, path, jsonHeaders(), body))).toBe('401 UNAUTHENTICATED')
      expect(await reasons(send(method, path, jsonHeaders([bearer('ab'.repeat(32))]), body))).toBe('401 UNAUTHENTICATED')
    }
    for (const body of ['', '{nope', notUtf8, undefined])
      expect(await reasons(send(method, path, jsonHeaders([bearer(token)]), body))).toBe('400 INVALID_JSON')
  }
  // A label with bytes that are not UTF-8 was stored with replacement characters before.
  const key = seededKey()
  const upload = toJson({
    label: 'LABEL',
    address: privateKeyToAccount(key).address,
    ...eciesEncrypt(serverPublicKey, new TextEncoder().encode(key)),
  })
  const [head, tail] = upload.split('LABEL') as [string, string]
  const body = new Uint8Array([...new TextEncoder().encode(`${head}a`), 0xc0, 0xaf, ...new TextEncoder().encode(tail)])
  expect(await reasons(send('POST', '/api/keys', jsonHeaders([bearer(token)]), body))).toBe('400 INVALID_JSON')
  expect(await reasons(send('POST', '/api/auth/login', jsonHeaders(), new Uint8Array([0x7b, 0xff, 0x7d])))).toBe('400 INVALID_JSON')
  // A leading BOM is allowed by RFC 8259 and skipped: this one still reaches the challenge check.
  expect(
    await reasons(
      send('POST', '/api/auth/login', jsonHeaders(), `\ufeff${toJson({ address: randomAddress(), timestamp_ms: 1, signature: '0x00' })}`),
    ),
  ).toBe('401 CHALLENGE_MISSING')
})

test('a client that hangs up in the middle of a login body (chunked or with a declared length) leaves no error behind', async () => {
  await hangUpMidBody(A, '/api/auth/login')
  await Bun.sleep(200)
  // The last test checks the service's output for any error; the service still answers.
  expect((await api(A, '/api/auth/challenge')).status).toBeLessThan(500)
})

test('afterwards the service is alive, a valid login works, and the garbage stored and changed nothing', async () => {
  expect((await api(A, '/api/health')).status).toBe(200)
  token = await loginToken(A, ADMIN_KEY)
  expectedLogins++
  const me = await api(A, '/api/auth/me', { token })
  expect(me.body.address).toBe(ADMIN_ADDRESS)

  const after = snapshot()
  expect(after.keys).toEqual(before.keys)
  expect(after.bindings).toEqual(before.bindings)
  expect(after.categories).toEqual(before.categories)
  expect(after.catalog).toEqual(before.catalog)
  expect(after.hedge).toEqual(before.hedge)
  // The only new audit rows are the logins that succeeded on purpose, and the failed ones (audited
  // too, docs/admin.md#audit-log).
  const added = after.audit.slice(before.audit.length)
  expect(after.audit.slice(0, before.audit.length)).toEqual(before.audit)
  expect(added.filter((e) => e.action !== 'login.failed').map((e) => `${e.action} ${e.actor}`)).toEqual(
    Array.from({ length: expectedLogins }, () => `login ${ADMIN_ADDRESS}`),
  )
  expect(added.some((e) => e.action === 'login.failed')).toBe(true)

  const keys = await api(A, '/api/keys', { token })
  expect(keys.body.keys.map((k: { id: string; used_by: string[] }) => [k.id, k.used_by])).toEqual([[anchorId, ['liquidator']]])
  const services = await api(A, '/api/service-config', { token })
  expect(services.body.services.liquidator).toMatchObject({ key_id: anchorId, enabled: false })

  // Nothing was thrown past the service's error mapping.
  const output = admin.output()
  // No error-level log line (JSON lines, as the service writes them to a pipe, or plain text).
  expect(output).not.toMatch(/"level":"error"| error \[admin|uncaught|unhandled|panic|^\s+at /im)
})
