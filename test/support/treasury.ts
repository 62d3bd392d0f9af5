// A small, faithful treasury for the bridge_withdraw runner's tests: the two routes of
// docs/admin.md#treasury-interface, checked as a real treasury should check them, built
// independently of the admin service's code (viem recovers the signatures).
//
//   POST /payouts            pays a withdrawal out once per Idempotency-Key; a request with a key it
//                            has seen answers the first result and pays nothing.
//   GET  /payouts/{key}      {status: paid | failed | pending | unknown, external_tx?, reason?}
//
// A POST must carry Idempotency-Key, X-Perpd-Signer and X-Perpd-Signature (EIP-191 personal_sign
// of the exact body bytes by the signer); the body's idempotency_key must be the header's, and must
// be perpd:{network}:{chain[2..34]}:{withdrawal_id} of the body's fields. With a node URL it also
// checks, on the chain, that the signer holds BridgeWithdraw and that the withdrawal is pending
// with the body's account, destination and amount. Tests can make it hold its replies (to force
// the runner's timeouts, or to kill the runner while a payout is under way), answer 503 without
// recording anything, or refuse to pay (a definite failure).
import { type Hex, recoverMessageAddress } from 'viem'
import { RpcClient } from '../../src/client/rpc-client.ts'

/** What the treasury did with one key. */
export interface TreasuryRecord {
  readonly key: string
  readonly body: string
  readonly withdrawalId: number
  readonly signer: string
  readonly status: 'paid' | 'failed'
  readonly externalTx: string | null
  readonly reason: string | null
}

/** One request the treasury received. */
export interface TreasuryRequest {
  readonly method: 'POST' | 'GET'
  readonly key: string
  readonly signer: string | null
  /** What it answered with (HTTP status). */
  readonly answered: number
  readonly atMs: number
}

export interface Treasury {
  /** The payout URL (--withdraw-payout-url). */
  readonly url: string
  /** Payouts made for a key: 0 or 1 (a second would be a bug this treasury would show as 2). */
  payouts(key: string): number
  /** Every payout made, by key. */
  readonly records: ReadonlyMap<string, TreasuryRecord>
  /** Every request, in arrival order (a request held by a delay is listed when it arrives). */
  readonly requests: readonly TreasuryRequest[]
  /** POSTs received for a key. */
  posts(key: string): number
  /** Status reads (GET) received for a key. */
  statusReads(key: string): number
  /** Holds every POST reply (the payout itself happens at once) this long; 0 answers at once. */
  delayPayoutReplies(ms: number): void
  /** Holds every status reply this long. */
  delayStatusReplies(ms: number): void
  /** ok: pay; refuse: record a definite failure and answer failed; unavailable: answer 503 and record nothing. */
  mode(mode: 'ok' | 'refuse' | 'unavailable'): void
  /** The node whose chain the checks read from now on (undefined: no chain checks). */
  setNode(url: string | undefined): void
  /** Resolves once a POST for a key ending in `:{withdrawalId}` arrived. */
  waitForPost(withdrawalId: number, timeoutMs?: number): Promise<TreasuryRequest>
  stop(): void
}

/** The idempotency key of docs/admin.md#treasury-interface, computed here independently. */
export function treasuryKey(network: string, block1Digest: string, withdrawalId: number): string {
  return `perpd:${network}:${block1Digest.slice(2, 34)}:${withdrawalId}`
}

export function startTreasury(opts: { nodeUrl?: string } = {}): Treasury {
  const records = new Map<string, TreasuryRecord>()
  const requests: TreasuryRequest[] = []
  const postCount = new Map<string, number>()
  const readCount = new Map<string, number>()
  const payoutCount = new Map<string, number>()
  let payoutDelay = 0
  let statusDelay = 0
  let mode: 'ok' | 'refuse' | 'unavailable' = 'ok'
  let seq = 0
  let rpc = opts.nodeUrl === undefined ? undefined : new RpcClient(opts.nodeUrl)
  const bump = (m: Map<string, number>, key: string) => m.set(key, (m.get(key) ?? 0) + 1)
  const answer = (body: Record<string, unknown>) =>
    body.status === 'paid' ? { status: 'paid', external_tx: body.externalTx } : { status: 'failed', reason: body.reason }
  const json = (status: number, body: unknown) => Response.json(body, { status })

  async function post(req: Request): Promise<Response> {
    const text = await req.text()
    const key = req.headers.get('idempotency-key') ?? ''
    const signer = (req.headers.get('x-perpd-signer') ?? '').toLowerCase()
    const signature = req.headers.get('x-perpd-signature') ?? ''
    const refuse = (status: number, error: string) => {
      requests.push({ method: 'POST', key, signer: signer || null, answered: status, atMs: Date.now() })
      return json(status, { error })
    }
    if (key === '' || signer === '' || signature === '')
      return refuse(400, 'Idempotency-Key, X-Perpd-Signer and X-Perpd-Signature are required')
    let recovered: string
    try {
      recovered = (
        await recoverMessageAddress({ message: { raw: new TextEncoder().encode(text) }, signature: signature as Hex })
      ).toLowerCase()
    } catch {
      return refuse(401, 'malformed signature')
    }
    if (recovered !== signer) return refuse(401, `the signature is by ${recovered}, not ${signer}`)
    let body: {
      idempotency_key?: unknown
      network?: unknown
      chain?: unknown
      withdrawal_id?: unknown
      account?: unknown
      destination?: unknown
      amount?: unknown
    }
    try {
      body = JSON.parse(text) as typeof body
    } catch {
      return refuse(400, 'not JSON')
    }
    if (body.idempotency_key !== key) return refuse(400, "the body's idempotency_key is not the header's")
    if (
      typeof body.network !== 'string' ||
      typeof body.chain !== 'string' ||
      typeof body.withdrawal_id !== 'number' ||
      typeof body.account !== 'string' ||
      typeof body.destination !== 'string' ||
      typeof body.amount !== 'string'
    )
      return refuse(400, 'a field is missing')
    if (treasuryKey(body.network, body.chain, body.withdrawal_id) !== key)
      return refuse(400, 'the key does not name this chain and withdrawal')
    const seen = records.get(key)
    if (seen !== undefined) {
      // The same key again: the first result, never a second payment (and only for the same request).
      if (seen.body !== text) return refuse(422, 'this key was used for another request')
      requests.push({ method: 'POST', key, signer, answered: 200, atMs: Date.now() })
      bump(postCount, key)
      await Bun.sleep(payoutDelay)
      return json(200, answer(seen as unknown as Record<string, unknown>))
    }
    if (rpc !== undefined) {
      const roles = (await rpc.query<{ roles: string[] }>('getAccount', { address: signer })).data.roles
      if (!roles.includes('BridgeWithdraw')) return refuse(403, `${signer} does not hold BridgeWithdraw`)
      const pending = (
        await rpc.query<{ withdrawal_id: number; destination: string; amount: string }[]>('getWithdrawals', { address: body.account })
      ).data
      const w = pending.find((p) => p.withdrawal_id === body.withdrawal_id)
      if (w === undefined || w.destination !== body.destination || w.amount !== body.amount)
        return refuse(409, `withdrawal ${body.withdrawal_id} is not pending as described`)
    }
    bump(postCount, key)
    if (mode === 'unavailable') {
      requests.push({ method: 'POST', key, signer, answered: 503, atMs: Date.now() })
      return json(503, { error: 'try later' })
    }
    requests.push({ method: 'POST', key, signer, answered: 200, atMs: Date.now() })
    // The payout happens now; only the reply waits.
    const record: TreasuryRecord =
      mode === 'refuse'
        ? {
            key,
            body: text,
            withdrawalId: body.withdrawal_id,
            signer,
            status: 'failed',
            externalTx: null,
            reason: 'destination refused the transfer',
          }
        : { key, body: text, withdrawalId: body.withdrawal_id, signer, status: 'paid', externalTx: `0xtreasury${++seq}`, reason: null }
    records.set(key, record)
    if (record.status === 'paid') bump(payoutCount, key)
    await Bun.sleep(payoutDelay)
    return json(200, answer(record as unknown as Record<string, unknown>))
  }

  async function status(key: string): Promise<Response> {
    bump(readCount, key)
    requests.push({ method: 'GET', key, signer: null, answered: 200, atMs: Date.now() })
    await Bun.sleep(statusDelay)
    const r = records.get(key)
    return json(200, r === undefined ? { status: 'unknown' } : answer(r as unknown as Record<string, unknown>))
  }

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 120,
    fetch(req) {
      const path = new URL(req.url).pathname
      if (req.method === 'POST' && path === '/payouts') return post(req)
      if (req.method === 'GET' && path.startsWith('/payouts/')) return status(decodeURIComponent(path.slice('/payouts/'.length)))
      return json(404, { error: 'no such route' })
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}/payouts`,
    payouts: (key) => payoutCount.get(key) ?? 0,
    records,
    requests,
    posts: (key) => postCount.get(key) ?? 0,
    statusReads: (key) => readCount.get(key) ?? 0,
    delayPayoutReplies: (ms) => {
      payoutDelay = ms
    },
    delayStatusReplies: (ms) => {
      statusDelay = ms
    },
    mode: (m) => {
      mode = m
    },
    setNode: (url) => {
      rpc = url === undefined ? undefined : new RpcClient(url)
    },
    async waitForPost(withdrawalId, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      while (Date.now() < deadline) {
        const r = requests.find((q) => q.method === 'POST' && q.key.endsWith(`:${withdrawalId}`))
        if (r !== undefined) return r
        await Bun.sleep(25)
      }
      throw new Error(`the treasury saw no payout request for withdrawal ${withdrawalId} in ${timeoutMs} ms`)
    },
    stop: () => server.stop(true),
  }
}
