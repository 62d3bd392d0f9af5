// Starts the real admin service (src/admin.ts) as a child process on 127.0.0.1 port 0 with a
// temporary data directory, and the small HTTP servers its runners read from in tests: a price
// source and a deposit source speaking the same documents as the real adapters read.
import { afterAll } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { concat, type Hex, toHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { parseJsonOrUndefined } from '../../src/lib/json.ts'
import { type ListeningProcess, type RunResult, runScript, spawnListening } from './child-process.ts'
import { type NodeProcess, removeDir, startNode } from './node-process.ts'

/** A running admin service with its data directory, database file and KEK file. */
export interface AdminProcess extends ListeningProcess {
  readonly dataDir: string
  readonly dbFile: string
  /** The KEK file: `--kek-file` when args give it, else the default beside the data directory (docs/admin.md#data-directory). */
  readonly kekFile: string
}

/** Starts `bun src/admin.ts` against a node and resolves once it prints its address. */
export async function startAdmin(opts: {
  nodeUrl: string
  dataDir?: string
  args?: string[]
  /** Environment variables added to the child's (childEnv drops this process's PERPD_* ones). */
  env?: Record<string, string>
}): Promise<AdminProcess> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'perpd-admin-test-'))
  const args = ['--node-url', opts.nodeUrl, '--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0', ...(opts.args ?? [])]
  const kekAt = args.indexOf('--kek-file')
  const kekFile = kekAt >= 0 ? args[kekAt + 1]! : args.includes('--dev') ? join(dataDir, 'admin.kek') : `${dataDir}.kek`
  const proc = await spawnListening('perpd-admin', 'src/admin.ts', args, opts.env)
  return { ...proc, dataDir, dbFile: join(dataDir, 'admin.sqlite'), kekFile }
}

/** Removes an admin service's data directory and its KEK file. */
export function removeAdminFiles(admin: { dataDir: string; kekFile: string }): void {
  removeDir(admin.dataDir)
  rmSync(admin.kekFile, { force: true })
}

/**
 * A dev node and an admin service over it for the calling test file (call it at the top level of
 * the file); both are stopped and their data directories removed once the file's tests are done.
 */
export async function startAdminWithNodeForFile(): Promise<{ node: NodeProcess; admin: AdminProcess }> {
  const node = await startNode()
  const admin = await startAdmin({ nodeUrl: node.url })
  afterAll(async () => {
    await admin.stop()
    await node.stop().catch(() => 0)
    removeAdminFiles(admin)
    removeDir(node.dataDir)
  })
  return { node, admin }
}

/** Runs `bun src/admin.ts ARGS` to completion (for start-up refusals and the CLI). */
export function runAdmin(args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  return runScript('src/admin.ts', args, { env })
}

/** A JSON reply of the admin API. */
export interface ApiReply {
  status: number
  body: any
  text: string
  headers: Headers
}

/** Calls the admin API; `token` goes into `Authorization: Bearer`. */
export async function api(
  base: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<ApiReply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(init.headers ?? {}) }
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`
  const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body)
  const res = await fetch(base + path, { method: init.method ?? 'GET', headers, body })
  const text = await res.text()
  return { status: res.status, body: parseJsonOrUndefined(text), text, headers: res.headers }
}

const u64be = (n: number) => {
  const b = new Uint8Array(8)
  new DataView(b.buffer).setBigUint64(0, BigInt(n))
  return toHex(b)
}

/**
 * The 28 login bytes of docs/protocol.md#admin-login-signature, built independently of the project
 * (viem's helpers).
 */
export function loginBytes(challenge: string, timestampMs: number): Hex {
  return concat(['0x92', '0xc410', `0x${challenge}`, '0xcf', u64be(timestampMs)])
}

/** Gets a challenge and signs it with viem's signMessage({message: {raw}}), like a wallet. */
export async function signedChallenge(base: string, privateKey: Hex) {
  const ch = await api(base, '/api/auth/challenge')
  const account = privateKeyToAccount(privateKey)
  const signature = await account.signMessage({ message: { raw: loginBytes(ch.body.challenge, ch.body.timestamp_ms) } })
  return { address: account.address, timestamp_ms: ch.body.timestamp_ms as number, signature, challenge: ch.body.challenge as string }
}

/** Logs in with a wallet signature; returns the reply. */
export async function login(base: string, privateKey: Hex): Promise<ApiReply> {
  const s = await signedChallenge(base, privateKey)
  return api(base, '/api/auth/login', {
    method: 'POST',
    body: { address: s.address, timestamp_ms: s.timestamp_ms, signature: s.signature },
  })
}

/** Logs in and returns the token (throws unless 200). */
export async function loginToken(base: string, privateKey: Hex): Promise<string> {
  const r = await login(base, privateKey)
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text}`)
  return r.body.token as string
}

type Prices = { bid: string; ask: string; mark: string; last?: string; volume?: string; ts_ms?: number }

export interface PriceServer {
  readonly url: string
  /** Sets (or with undefined removes) the prices served for a symbol; a `ts_ms` of its own overrides the document's. */
  set(symbol: string, prices: Prices | undefined): void
  /**
   * The document's `ts_ms`: by default the time of each answer (a live source); a number freezes
   * it there (an upstream that stopped updating); null leaves it out (a source that dates nothing).
   */
  timestamp(ts: 'live' | number | null): void
  readonly requests: number
  stop(): void
}

/** A price source answering `GET /prices?symbols=…` with `{ts_ms, prices: {SYMBOL: {bid, ask, mark}}}` (docs/admin.md#oracle-runner). */
export function startPriceServer(): PriceServer {
  const prices = new Map<string, Prices>()
  let requests = 0
  let ts: 'live' | number | null = 'live'
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      requests++
      const wanted = (new URL(req.url).searchParams.get('symbols') ?? '').split(',').filter((s) => s !== '')
      const out: Record<string, unknown> = {}
      for (const s of wanted) {
        const p = prices.get(s)
        if (p !== undefined) out[s] = p
      }
      return Response.json({ ...(ts === null ? {} : { ts_ms: ts === 'live' ? Date.now() : ts }), prices: out })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}/prices`,
    set: (symbol, p) => (p === undefined ? prices.delete(symbol) : prices.set(symbol, p)),
    timestamp: (t) => {
      ts = t
    },
    get requests() {
      return requests
    },
    stop: () => server.stop(true),
  }
}

/** Polls `probe` until it returns a value other than undefined, or throws after timeoutMs. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last: unknown
  while (Date.now() < deadline) {
    try {
      const v = await probe()
      if (v !== undefined) return v
    } catch (err) {
      last = err
    }
    await Bun.sleep(100)
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`)
}
