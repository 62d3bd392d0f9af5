// Hyperliquid's signed write API, POST {base}/exchange: `{action, nonce, signature, vaultAddress}`
// answered `{status: "ok", response: {type, data: {statuses}}}` or `{status: "err", response: "…"}`.
// Nonces are the time in ms, strictly increasing per signer (Hyperliquid keeps each signer's
// highest nonces and refuses a repeated or too old one).
import { type Static, Type } from '@sinclair/typebox'
import { addressOfPrivateKey } from '../../wire/signing.ts'
import { postJson } from './hyperliquid-info.ts'
import { type HyperliquidAction, type HyperliquidNetwork, signL1Action } from './hyperliquid-signing.ts'

const Num = Type.String({ maxLength: 64 })
const Cloid = Type.Optional(Type.String({ pattern: '^0x[0-9a-fA-F]{32}$' }))

/** One entry of `statuses` in the answer to an `order` action. */
export const HlOrderStatusEntry = Type.Union([
  Type.Object({ resting: Type.Object({ oid: Type.Integer({ minimum: 0 }), cloid: Cloid }) }),
  Type.Object({ filled: Type.Object({ totalSz: Num, avgPx: Num, oid: Type.Integer({ minimum: 0 }), cloid: Cloid }) }),
  Type.Object({ error: Type.String({ maxLength: 1000 }) }),
])
export type HlOrderStatusEntry = Static<typeof HlOrderStatusEntry>

/** One entry of `statuses` in the answer to a cancel: "success" or an error. */
export const HlCancelStatusEntry = Type.Union([Type.Literal('success'), Type.Object({ error: Type.String({ maxLength: 1000 }) })])
export type HlCancelStatusEntry = Static<typeof HlCancelStatusEntry>

const ExchangeAnswer = Type.Union([
  Type.Object({ status: Type.Literal('err'), response: Type.String({ maxLength: 2000 }) }),
  Type.Object({
    status: Type.Literal('ok'),
    response: Type.Object({
      type: Type.String(),
      data: Type.Optional(Type.Object({ statuses: Type.Array(Type.Union([HlOrderStatusEntry, HlCancelStatusEntry])) })),
    }),
  }),
])

/** The venue refused the whole action (`{status: "err"}`): bad signature or nonce, unknown user, malformed action. */
export class HyperliquidActionError extends Error {
  override readonly name = 'HyperliquidActionError'
}

/** Signs and sends actions for one account. */
export class HyperliquidExchangeClient {
  private readonly url: string
  private lastNonce = 0
  readonly address: string

  constructor(
    apiUrl: string,
    private readonly network: HyperliquidNetwork,
    private readonly privateKey: Uint8Array,
    private readonly label: string,
    private readonly clock: () => number = Date.now,
  ) {
    this.url = `${apiUrl.replace(/\/+$/, '')}/exchange`
    this.address = addressOfPrivateKey(privateKey)
  }

  /** The next nonce: the time in ms, or one more than the last when the clock has not moved on. */
  private nextNonce(): number {
    this.lastNonce = Math.max(this.clock(), this.lastNonce + 1)
    return this.lastNonce
  }

  /** Sends an action and returns its per-item statuses; throws HyperliquidActionError when the venue refused the action. */
  async send(action: HyperliquidAction, signal?: AbortSignal): Promise<readonly (HlOrderStatusEntry | HlCancelStatusEntry)[]> {
    const nonce = this.nextNonce()
    const signature = signL1Action(this.privateKey, action, nonce, this.network)
    const answer = await postJson(
      this.url,
      { action, nonce, signature, vaultAddress: null },
      ExchangeAnswer,
      `${this.label} /exchange ${action.type}`,
      signal,
    )
    if (answer.status === 'err') throw new HyperliquidActionError(`${this.label} refused ${action.type}: ${answer.response}`)
    const statuses = answer.response.data?.statuses
    if (statuses === undefined) throw new Error(`${this.label} answered ${action.type} without statuses`)
    return statuses
  }
}
