// The high-level client: one signer, its nonces, and the node's JSON-RPC interface.
import { NonceManager } from './nonce-manager.ts'
import type { QueryData, QueryMethodName, QueryParams } from './query-methods.ts'
import { type ActionReply, type QueryResult, RpcCallError, RpcClient } from './rpc-client.ts'
import { Signer } from './signer.ts'
import type { PerpdWsClient } from './ws-client.ts'

export interface PerpdClientOptions {
  readonly url: string
  /** Hex, or 32 bytes the client's signer takes over (see Signer). */
  readonly privateKey: string | Uint8Array
  /** The chain's network name (read from getExchangeConfig when omitted). */
  readonly network?: string
  /**
   * A WebSocket client of the same node: while it is connected, send() posts actions over it
   * (docs/websocket.md#posting-actions) instead of one HTTP request each; otherwise over HTTP.
   */
  readonly ws?: PerpdWsClient
}

export class PerpdClient {
  readonly rpc: RpcClient
  readonly signer: Signer
  readonly nonces: NonceManager
  private network: string | undefined
  private readonly ws: PerpdWsClient | undefined

  constructor(options: PerpdClientOptions) {
    this.rpc = new RpcClient(options.url)
    this.signer = new Signer(options.privateKey)
    this.nonces = new NonceManager(this.rpc, this.signer.address)
    this.network = options.network
    this.ws = options.ws
  }

  get address(): string {
    return this.signer.address
  }

  /**
   * Calls one /query read method, typed by the method table (query-methods.ts, docs/rpc.md):
   * `client.query('getAccount', { address })` resolves to the wrapper whose `data` is the
   * method's result. Params may be left out when the method requires none.
   * Throws RpcCallError on an error reply.
   */
  query<M extends QueryMethodName>(
    method: M,
    // Params are optional when the empty object is valid params (every field optional).
    ...params: Record<string, never> extends QueryParams<M> ? [params?: QueryParams<M>] : [params: QueryParams<M>]
  ): Promise<QueryResult<QueryData<M>>> {
    return this.rpc.query<QueryData<M>>(method, (params[0] ?? {}) as Record<string, unknown>)
  }

  async networkName(): Promise<string> {
    if (this.network === undefined) this.network = (await this.query('getExchangeConfig')).data.network
    return this.network
  }

  /**
   * Signs and sends an action with the next nonce. The nonce manager keeps every nonce in flight
   * within 64 of the oldest one still in flight (docs/protocol.md#nonces), so this waits while
   * the window is full. A refusal at admission gives the nonce back (it was not consumed) and
   * throws RpcCallError; NONCE_REPLAY also resyncs the nonces with the node.
   * build receives the nonce, for user-signed kinds that carry it inside the action.
   * onSigned receives the tx hash before the action is sent, so a caller can look the transaction
   * up (getTx) when the reply is lost. With a connected WebSocket client (options.ws) the action
   * goes over it, else over HTTP.
   */
  async send(
    build: Record<string, unknown> | ((nonce: number, network: string) => Record<string, unknown>),
    options: { onSigned?: (txHash: string) => void } = {},
  ): Promise<ActionReply> {
    const network = await this.networkName()
    const nonce = await this.nonces.take()
    let params: unknown
    try {
      const action = typeof build === 'function' ? build(nonce, network) : build
      const signed = this.signer.sign(action, nonce, network)
      params = signed.params
      options.onSigned?.(signed.txHash)
    } catch (err) {
      this.nonces.giveBack(nonce)
      throw err
    }
    let reply: ActionReply
    try {
      // The same replies and refusals either way; a lost connection is an unknown outcome, as a failed fetch.
      reply = this.ws?.connected === true ? await this.ws.post(params) : await this.rpc.action(params)
    } catch (err) {
      if (!(err instanceof RpcCallError))
        this.nonces.complete(nonce) // outcome unknown
      else if (err.reason === 'NONCE_REPLAY')
        await this.nonces.replayed(nonce).catch(() => {}) // a failed resync is retried on the next replay
      else this.nonces.giveBack(nonce)
      throw err
    }
    this.nonces.complete(nonce)
    return reply
  }
}
