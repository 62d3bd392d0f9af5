// A read client for tests that checks every /query reply against the method's declared result
// schema, so each end-to-end test that reads also proves the schemas (rpc.discover, docs/rpc.md)
// describe what the node really sends.
import { queryMethodTable } from '../../src/api/routes/query-routes.ts'
import { type QueryResult, RpcClient, type RpcErrorBody } from '../../src/client/rpc-client.ts'

/** Throws when `data` of a reply to `method` does not match the method's result schema. */
export function checkReplyData(method: string, data: unknown): void {
  const m = queryMethodTable.get(method)
  if (m?.resultValidator === undefined) return
  const v = m.resultValidator.validate(data, 'data')
  if (!v.ok)
    throw new Error(
      `${method}: reply does not match its result schema at ${v.field}: ${v.message}\n${JSON.stringify(data).slice(0, 2_000)}`,
    )
}

export class CheckedRpcClient extends RpcClient {
  override async query<T = unknown>(method: string, params: Record<string, unknown> = {}): Promise<QueryResult<T>> {
    const r = await super.query<T>(method, params)
    checkReplyData(method, r.data)
    return r
  }

  override async batch(
    calls: readonly { method: string; params?: Record<string, unknown> }[],
  ): Promise<({ result: QueryResult } | { error: RpcErrorBody })[]> {
    const replies = await super.batch(calls)
    replies.forEach((r, i) => {
      if ('result' in r && calls[i] !== undefined) checkReplyData(calls[i]!.method, r.result.data)
    })
    return replies
  }
}
