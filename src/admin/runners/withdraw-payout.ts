// How the bridge_withdraw runner pays a withdrawal out before settling it on chain. With
// --withdraw-payout-url the payout is an HTTP call to the bridge's treasury service; without it
// the runner settles directly (a development network has no destination chain to pay on).

/** A pending withdrawal as getWithdrawals lists it, with its account. */
export interface PendingWithdrawal {
  readonly withdrawal_id: number
  readonly account: string
  readonly destination: string
  readonly amount: string
}

/** Whether a payout went through, with its external reference when the treasury gives one. */
export type PayoutResult = { readonly ok: true; readonly externalTx: string | null } | { readonly ok: false; readonly message: string }

/** Pays a withdrawal out on the destination chain (through the bridge's treasury). */
export interface WithdrawalPayout {
  readonly name: string
  pay(w: PendingWithdrawal, signal: AbortSignal): Promise<PayoutResult>
}

const PAYOUT_TIMEOUT_MS = 15_000
const EXTERNAL_TX = /^[A-Za-z0-9_.:#/-]{1,128}$/

/**
 * POSTs the withdrawal as JSON; a 2xx answer means paid and may carry `{"external_tx": "…"}`
 * (recorded and put into SettleWithdrawal). Any other answer leaves it pending for the next cycle.
 * The treasury must be idempotent per withdrawal_id: a crash between its answer and our record
 * makes the runner ask again.
 */
export class HttpWithdrawalPayout implements WithdrawalPayout {
  readonly name: string
  constructor(private readonly url: string) {
    this.name = `http ${url}`
  }

  async pay(w: PendingWithdrawal, signal: AbortSignal): Promise<PayoutResult> {
    const res = await fetch(this.url, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(w),
      signal: AbortSignal.any([signal, AbortSignal.timeout(PAYOUT_TIMEOUT_MS)]),
    })
    const text = await res.text()
    if (!res.ok) return { ok: false, message: `payout ${this.url} answered HTTP ${res.status}: ${text.slice(0, 200)}` }
    let externalTx: string | null = null
    try {
      const body = JSON.parse(text) as { external_tx?: unknown }
      if (typeof body.external_tx === 'string' && EXTERNAL_TX.test(body.external_tx)) externalTx = body.external_tx
    } catch {
      // A 2xx without a JSON body is still a payout; it only has no external reference.
    }
    return { ok: true, externalTx }
  }
}
