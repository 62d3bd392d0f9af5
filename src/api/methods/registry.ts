// The /query method table: one entry per JSON-RPC read method with its TypeBox params schema.
import type { Static, TSchema } from '@sinclair/typebox'
import type { ChainNode } from '../../node/chain-node.ts'
import { compileValidator, type Validator } from '../../wire/validate.ts'

export interface Page {
  offset: number
  limit: number
  total: number | null
  next_cursor: string | null
  has_more: boolean
}

/** What a method returns: its data, the height of that data (default: the chain tip), a page. */
export interface MethodResult {
  readonly data: unknown
  readonly height?: number
  readonly page?: Page
}

/**
 * A method-level error (-32602 for a bad parameter value the schema cannot see, etc.). With
 * httpStatus, the whole HTTP reply carries that status (spec §7.1: offset above 1000 is 400).
 */
export class MethodError extends Error {
  override readonly name = 'MethodError'
  constructor(readonly code: number, message: string, readonly data?: Record<string, unknown>, readonly httpStatus?: number) {
    super(message)
  }
}

export interface QueryContext {
  readonly node: ChainNode
}

export interface QueryMethod<P extends TSchema = TSchema> {
  readonly name: string
  readonly description: string
  readonly params: P
  /** May be async (history reads run off the main thread); the query times out after 10 s. */
  readonly handler: (ctx: QueryContext, params: Static<P>) => MethodResult | Promise<MethodResult>
  /** An example params object for rpc.discover and docs; defaults to {}. */
  readonly example?: Record<string, unknown>
  /**
   * The result depends only on the chain state at the current height (no history index, no hot
   * feed, no clock): it may be served from a cache that lives for one block.
   */
  readonly cachePerBlock?: boolean
}

export interface CompiledMethod extends QueryMethod {
  readonly validator: Validator<TSchema>
}

/** Declares a method; the generic keeps handler params typed by the schema. */
export function method<P extends TSchema>(m: QueryMethod<P>): QueryMethod {
  return m as unknown as QueryMethod
}

export function compileMethods(methods: readonly QueryMethod[]): Map<string, CompiledMethod> {
  const table = new Map<string, CompiledMethod>()
  for (const m of methods) {
    if (table.has(m.name)) throw new Error(`method ${m.name} declared twice`)
    table.set(m.name, { ...m, validator: compileValidator(m.params) })
  }
  return table
}
