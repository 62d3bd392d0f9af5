// How the bridge_withdraw runner pays a withdrawal out before settling it on chain: the treasury
// interface of docs/admin.md#treasury-interface. With --withdraw-payout-url the payout is an HTTP
// call to the bridge's treasury service; without it (a development network, or
// --settle-without-payout) the runner settles directly.
//
// Two routes, both idempotent per key:
//   POST {url}                    the payout request (JSON body below), with the headers
//                                 Idempotency-Key, X-Perpd-Signer and X-Perpd-Signature;
//   GET  {url}/{idempotency_key}  what became of the request with that key.
// The idempotency key names the chain and the withdrawal, never the signer, so a restart, a
// timeout or a rebinding to another key asks about (or repeats) the same payout, which the
// treasury pays at most once.

/** A withdrawal to pay out, as the chain lists it, with its account. */
export interface PendingWithdrawal {
  readonly withdrawal_id: number
  readonly account: string
  readonly destination: string
  readonly amount: string
}

/** The chain a withdrawal belongs to: its network name and the digest of its block 1 (which names its genesis too). */
export interface ChainIdentity {
  readonly network: string
  /** The digest of block 1 (0x + 64 hex). */
  readonly chain: string
}

/** The body of a payout request, exactly as signed (key order as here). */
export interface PayoutRequest {
  readonly idempotency_key: string
  readonly network: string
  readonly chain: string
  readonly withdrawal_id: number
  readonly account: string
  readonly destination: string
  readonly amount: string
}

/**
 * What the treasury says about a payout. `paid` and `failed` are final (failed: it will never pay
 * this key, so the withdrawal may be refunded); `pending`: it has the request and has not finished;
 * `unknown`: it never saw the key (status route only). `no_answer`: no usable answer (a timeout, a
 * refused connection, another status, a malformed body): the payout may or may not have happened.
 */
export type TreasuryAnswer =
  | { readonly status: 'paid'; readonly externalTx: string | null }
  | { readonly status: 'failed'; readonly reason: string }
  | { readonly status: 'pending' }
  | { readonly status: 'unknown' }
  | { readonly status: 'no_answer'; readonly message: string }

/** The bridge's treasury, which pays withdrawals out on the destination chain. */
export interface WithdrawalPayout {
  readonly name: string
  /** Asks for the payout (idempotent per request.idempotency_key); `sign` signs the exact body bytes. */
  pay(request: PayoutRequest, sign: RequestSigner, signal: AbortSignal): Promise<TreasuryAnswer>
  /** What became of the payout with this key. */
  status(idempotencyKey: string, signal: AbortSignal): Promise<TreasuryAnswer>
}

/** Signs bytes with the runner's key (EIP-191 personal_sign): its address and the 65-byte signature as hex. */
export interface RequestSigner {
  readonly address: string
  personalSign(message: Uint8Array): string
}

/** Default timeout of one treasury call (--withdraw-payout-timeout-ms). */
export const PAYOUT_TIMEOUT_MS = 15_000
const EXTERNAL_TX = /^[A-Za-z0-9_.:#/-]{1,128}$/
const UTF8 = new TextEncoder()

/**
 * The idempotency key of a withdrawal: `perpd:{network}:{chain}:{withdrawal_id}`, chain being the
 * first 16 bytes of block 1's digest as 32 hex digits. A chain reset (a new block 1) gives new
 * keys, so the treasury never answers a new chain's withdrawal 1 with an old chain's payout.
 */
export function idempotencyKey(id: ChainIdentity, withdrawalId: number): string {
  return `perpd:${id.network}:${id.chain.slice(2, 34)}:${withdrawalId}`
}

/** The payout request of a withdrawal on a chain. */
export function payoutRequest(id: ChainIdentity, w: PendingWithdrawal): PayoutRequest {
  return {
    idempotency_key: idempotencyKey(id, w.withdrawal_id),
    network: id.network,
    chain: id.chain,
    withdrawal_id: w.withdrawal_id,
    account: w.account,
    destination: w.destination,
    amount: w.amount,
  }
}

/** Reads a treasury reply body: `{status, external_tx?, reason?}`; anything else is no answer. */
export function parseTreasuryAnswer(httpStatus: number, text: string, allowUnknown: boolean): TreasuryAnswer {
  const noAnswer = (why: string): TreasuryAnswer => ({ status: 'no_answer', message: `HTTP ${httpStatus}: ${why}` })
  if (httpStatus < 200 || httpStatus > 299) return noAnswer(text.slice(0, 200) || 'no body')
  let body: { status?: unknown; external_tx?: unknown; reason?: unknown }
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    return noAnswer(`not JSON: ${text.slice(0, 200)}`)
  }
  if (body === null || typeof body !== 'object') return noAnswer('not a JSON object')
  switch (body.status) {
    case 'paid':
      return {
        status: 'paid',
        externalTx: typeof body.external_tx === 'string' && EXTERNAL_TX.test(body.external_tx) ? body.external_tx : null,
      }
    case 'failed':
      return { status: 'failed', reason: typeof body.reason === 'string' ? body.reason.slice(0, 128) : 'the treasury did not pay' }
    case 'pending':
      return { status: 'pending' }
    case 'unknown':
      return allowUnknown ? { status: 'unknown' } : noAnswer('status unknown in reply to the payout request itself')
    default:
      return noAnswer(`unexpected status ${JSON.stringify(body.status)?.slice(0, 40)}`)
  }
}

/** The treasury over HTTP (docs/admin.md#treasury-interface). */
export class HttpWithdrawalPayout implements WithdrawalPayout {
  readonly name: string
  constructor(
    private readonly url: string,
    private readonly timeoutMs: number = PAYOUT_TIMEOUT_MS,
  ) {
    this.name = `http ${url}`
  }

  async pay(request: PayoutRequest, sign: RequestSigner, signal: AbortSignal): Promise<TreasuryAnswer> {
    const body = JSON.stringify(request)
    const signature = sign.personalSign(UTF8.encode(body))
    return this.call(
      this.url,
      {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'idempotency-key': request.idempotency_key,
          'x-perpd-signer': sign.address,
          'x-perpd-signature': signature,
        },
      },
      false,
      signal,
    )
  }

  status(key: string, signal: AbortSignal): Promise<TreasuryAnswer> {
    return this.call(`${this.url}/${encodeURIComponent(key)}`, { method: 'GET' }, true, signal)
  }

  private async call(url: string, init: RequestInit, allowUnknown: boolean, signal: AbortSignal): Promise<TreasuryAnswer> {
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.any([signal, AbortSignal.timeout(this.timeoutMs)]) })
      return parseTreasuryAnswer(res.status, await res.text(), allowUnknown)
    } catch (err) {
      if (signal.aborted) throw err
      return { status: 'no_answer', message: `${init.method} ${url}: ${(err as Error).message}` }
    }
  }
}
