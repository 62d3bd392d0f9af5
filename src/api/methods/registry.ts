// The /query method table: one entry per JSON-RPC read method with its TypeBox params schema.
import { type Static, type TSchema, Type } from '@sinclair/typebox'
import type { ChainNode } from '../../node/chain-node.ts'
import { U53 } from '../../wire/schema-types.ts'
import { compileValidator, type Validator } from '../../wire/validate.ts'

/** The `page` object of paged replies (docs/rpc.md#requests-and-replies). */
export const PageSchema = Type.Object(
  {
    offset: U53('rows skipped before this page'),
    limit: U53("rows this page may hold (the request's limit after clamping)"),
    total: Type.Union([U53('rows in all'), Type.Null()], { description: 'rows in all, or null when not counted' }),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'pass as cursor (or after_id / before_height) to read the next page; null on the last page',
    }),
    has_more: Type.Boolean({ description: 'true when rows follow this page' }),
  },
  { additionalProperties: false, description: 'where this page lies in the whole result' },
)

export type Page = Static<typeof PageSchema>

/** What a method returns: its data, the height of that data (default: the chain tip), a page. */
export interface MethodResult {
  readonly data: unknown
  readonly height?: number
  readonly page?: Page
}

/**
 * A method-level error (-32602 for a bad parameter value the schema cannot see, etc.). With
 * httpStatus, the whole HTTP reply carries that status (docs/errors.md#http-statuses: offset above
 * 1000 is 400).
 */
export class MethodError extends Error {
  override readonly name = 'MethodError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
    readonly httpStatus?: number,
  ) {
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
  /**
   * The TypeBox schema of `data` (the wrapper {height, chain_height, stale, data, page?} is common):
   * the one declaration behind rpc.discover, docs/rpc.md and the tests that check real replies.
   */
  readonly result: TSchema
  /** The handler returns `page` (paged reads): the reply's wrapper carries it. */
  readonly paged?: boolean
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
  /** Checks a reply's `data` against `result` (tests and docs; never on the serving path). */
  readonly resultValidator: Validator<TSchema>
}

/** Declares a method; the generic keeps handler params typed by the schema. */
export function method<P extends TSchema>(m: QueryMethod<P>): QueryMethod {
  return m as unknown as QueryMethod
}

export function compileMethods(methods: readonly QueryMethod[]): Map<string, CompiledMethod> {
  const table = new Map<string, CompiledMethod>()
  for (const m of methods) {
    if (table.has(m.name)) throw new Error(`method ${m.name} declared twice`)
    table.set(m.name, { ...m, validator: compileValidator(m.params), resultValidator: compileValidator(m.result) })
  }
  return table
}
