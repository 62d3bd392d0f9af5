// A JSON-RPC client for /query and /action.
import type { ActionReply, EventView } from '../wire/views.ts'

/** Event bodies (EventView.body), typed by sub_kind: docs/events.md. */
export { bodyAs, decodeEventBody, type EventBody, type EventBodyOf, type EventSubKind } from '../wire/events/index.ts'
export type { ActionReply, EventView } from '../wire/views.ts'
/** The EventView of an /action reply; the same type as EventView (kept for the history tests that import it by this name). */
export type EventViewReply = EventView

export interface QueryResult<T = unknown> {
  height: number
  chain_height: number
  stale: boolean
  data: T
  page?: unknown
}

export interface RpcErrorBody {
  code: number
  message: string
  data?: { reason?: string; [key: string]: unknown }
}

/** A JSON-RPC error returned by the node. */
export class RpcCallError extends Error {
  override readonly name = 'RpcCallError'
  constructor(
    readonly method: string,
    readonly error: RpcErrorBody,
  ) {
    super(`${method}: ${error.message} (${error.code}${error.data?.reason ? ` ${error.data.reason}` : ''})`)
  }
  get reason(): string | undefined {
    return this.error.data?.reason
  }
}

export class RpcClient {
  private nextId = 1

  /** baseUrl: the node's base address, e.g. http://127.0.0.1:8080 */
  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs = 15_000,
  ) {}

  private async post(path: string, body: unknown): Promise<unknown> {
    const res = await fetch(this.baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.timeoutMs),
    })
    return res.json()
  }

  /** Calls one read method; throws RpcCallError on an error reply. */
  async query<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<QueryResult<T>> {
    const reply = (await this.post('/api/v1/query', { jsonrpc: '2.0', id: this.nextId++, method, params })) as {
      result?: QueryResult<T>
      error?: RpcErrorBody
    }
    if (reply.error !== undefined) throw new RpcCallError(method, reply.error)
    return reply.result!
  }

  /** Sends a batch of reads; each reply is a result or an error, in request order. */
  async batch(
    calls: readonly { method: string; params?: Record<string, unknown> }[],
  ): Promise<({ result: QueryResult } | { error: RpcErrorBody })[]> {
    const base = this.nextId
    this.nextId += calls.length
    const reply = await this.post(
      '/api/v1/query',
      calls.map((c, i) => ({ jsonrpc: '2.0', id: base + i, method: c.method, params: c.params ?? {} })),
    )
    if (!Array.isArray(reply)) throw new RpcCallError('batch', (reply as { error: RpcErrorBody }).error)
    return reply as ({ result: QueryResult } | { error: RpcErrorBody })[]
  }

  /** Sends signed action params; returns the result (accepted or kept-reject) or throws the refusal. */
  async action<T = ActionReply>(params: unknown): Promise<T> {
    const reply = (await this.post('/api/v1/action', { jsonrpc: '2.0', id: this.nextId++, method: 'action', params })) as {
      result?: T
      error?: RpcErrorBody
    }
    if (reply.error !== undefined) throw new RpcCallError('action', reply.error)
    return reply.result!
  }
}
