// rpc.discover: an OpenRPC document generated from the method table. Each method's result is the
// chain wrapper {height, chain_height, stale, data, page?} around the method's own `result` schema,
// so the document, docs/rpc.md and the tests that check real replies share one declaration.
import { type TSchema, Type } from '@sinclair/typebox'
import { U53 } from '../../wire/schema-types.ts'
import { type CompiledMethod, PageSchema } from './registry.ts'

/** The fields of the wrapper every method's result shares, besides `data` and `page`. */
export const WrapperFields = {
  height: U53('height of the data: the chain tip, or the history index watermark for history reads'),
  chain_height: U53('the chain tip when the reply was made'),
  stale: Type.Boolean({ description: 'true when height < chain_height (the history index is behind the chain)' }),
}

/** The schema of a method's JSON-RPC `result`: the chain wrapper around its data. */
export function resultWrapperSchema(m: Pick<CompiledMethod, 'result' | 'paged'>): TSchema {
  return Type.Object(
    {
      ...WrapperFields,
      data: m.result,
      ...(m.paged === true ? { page: PageSchema } : {}),
    },
    { additionalProperties: false },
  )
}

type OpenRpcDocument = ReturnType<typeof buildDocument>
const documents = new WeakMap<ReadonlyMap<string, CompiledMethod>, OpenRpcDocument>()

/** The OpenRPC document of a method table (built once per table; the table never changes). */
export function openRpcDocument(table: ReadonlyMap<string, CompiledMethod>): OpenRpcDocument {
  let doc = documents.get(table)
  if (doc === undefined) {
    doc = buildDocument(table)
    documents.set(table, doc)
  }
  return doc
}

function buildDocument(table: ReadonlyMap<string, CompiledMethod>) {
  return {
    openrpc: '1.2.6',
    info: {
      title: 'perpd chain read API',
      version: '1',
      description:
        'POST /api/v1/query, JSON-RPC 2.0, batches of up to 20; results are {height, chain_height, stale, data, page?} (docs/rpc.md).',
    },
    methods: [...table.values()].map((m) => ({
      name: m.name,
      description: m.description,
      paramStructure: 'by-name',
      params: Object.entries((m.params.properties ?? {}) as Record<string, TSchema>).map(([name, schema]) => ({
        name,
        required: ((m.params.required ?? []) as string[]).includes(name),
        schema,
        ...(schema.description ? { description: schema.description } : {}),
      })),
      result: { name: 'result', required: true, schema: resultWrapperSchema(m) },
      examples: [{ name: `${m.name} example`, params: Object.entries(m.example ?? {}).map(([name, value]) => ({ name, value })) }],
    })),
  }
}
