// Renders docs/rpc.md from the /query method table: the reply wrapper, the error and limit rules,
// then every method with its params, the fields of its result, and an example request and reply.
// The examples are real replies of a dev node (scripts/docs/gen-rpc-doc.ts captures them);
// everything else comes from the table, and test/docs-rpc.test.ts checks the doc is current with it.
import type { TSchema } from '@sinclair/typebox'
import { WrapperFields } from '../../src/api/methods/openrpc.ts'
import { type CompiledMethod, PageSchema } from '../../src/api/methods/registry.ts'
import { REQUEST_BODY_MAX_BYTES } from '../../src/api/request-body.ts'
import { QUERY_BATCH_MAX, QUERY_TIMEOUT_MS } from '../../src/api/routes/query-routes.ts'
import { OFFSET_MAX } from '../../src/indexer/paging.ts'
import { typeLabel } from './actions-doc.ts'

/** One example of a method: the JSON-RPC request sent and the reply the node gave. */
export interface RpcExample {
  readonly request: { readonly jsonrpc: '2.0'; readonly id: number; readonly method: string; readonly params: Record<string, unknown> }
  readonly response: unknown
}

/** A table cell: pipes escaped, line breaks folded. */
const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ')

function limits(schema: TSchema): string {
  const parts: string[] = []
  if (schema.minimum !== undefined) parts.push(`min ${schema.minimum}`)
  if (schema.maximum !== undefined && schema.maximum !== Number.MAX_SAFE_INTEGER) parts.push(`max ${schema.maximum}`)
  if (schema.minLength !== undefined) parts.push(`min length ${schema.minLength}`)
  if (schema.maxLength !== undefined) parts.push(`max length ${schema.maxLength}`)
  return parts.join(', ')
}

/**
 * A union of more shapes than this is one row (the action of an envelope: its 44 kinds are in
 * docs/actions.md and in rpc.discover); fewer are listed shape by shape.
 */
const SHAPES_LISTED_MAX = 4

/** An object or array schema: its fields get rows of their own. */
const isComposite = (s: TSchema) => s.type === 'object' || s.type === 'array' || Array.isArray(s.anyOf)

/** typeLabel, with arrays of unions in parentheses, repeated member types once, tuples (an always-empty array) named. */
function typeOf(schema: TSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  if (Array.isArray(schema.anyOf)) {
    const members = schema.anyOf as TSchema[]
    const shapes = members.filter(isComposite).length
    if (shapes > SHAPES_LISTED_MAX) return `object, one of ${shapes} shapes${members.length > shapes ? ' \\| null' : ''}`
    return [...new Set(members.map(typeOf))].join(' \\| ')
  }
  if (schema.type === 'array') {
    const items = schema.items as TSchema | TSchema[] | undefined
    if (items === undefined || Array.isArray(items)) return schema.maxItems === 0 ? 'empty array' : 'array'
    return Array.isArray(items.anyOf) ? `(${typeOf(items)})[]` : `${typeOf(items)}[]`
  }
  return typeLabel(schema)
}

const propertiesOf = (schema: TSchema) => (schema.properties ?? {}) as Record<string, TSchema>
const requiredOf = (schema: TSchema) => new Set<string>((schema.required ?? []) as string[])

function paramRows(params: TSchema): string[] {
  const required = requiredOf(params)
  return Object.entries(propertiesOf(params)).map(([name, p]) => {
    const desc = [p.description, limits(p)].filter(Boolean).join('; ')
    return `| \`${name}\` | ${typeOf(p)} | ${required.has(name) ? 'yes' : 'no'} | ${cell(desc)} |`
  })
}

/**
 * Rows of a result schema: the value at `path`, then what it holds. Objects list their properties,
 * records their value under `path.*`, arrays their items under `path[]`; a union with one
 * composite member (an object or null, say) shows that member's fields, one with a few shows each
 * shape in turn.
 */
function resultRows(schema: TSchema, path: string, optional: boolean, label = `\`${path}\``): string[] {
  const note = [optional ? 'optional' : '', schema.description ?? ''].filter(Boolean).join('; ')
  return [`| ${label} | ${typeOf(schema)} | ${cell(note)} |`, ...innerRows(schema, path)]
}

function innerRows(schema: TSchema, path: string): string[] {
  if (Array.isArray(schema.anyOf)) {
    const shapes = (schema.anyOf as TSchema[]).filter(isComposite)
    if (shapes.length > SHAPES_LISTED_MAX) return []
    if (shapes.length === 1) return innerRows(shapes[0]!, path)
    return shapes.flatMap((s, i) => resultRows(s, path, false, `\`${path}\` (shape ${i + 1})`))
  }
  if (schema.type === 'array') {
    const items = schema.items as TSchema | TSchema[] | undefined
    return items !== undefined && !Array.isArray(items) && isComposite(items) ? innerRows(items, `${path}[]`) : []
  }
  if (schema.type === 'object') {
    const required = requiredOf(schema)
    const rows = Object.entries(propertiesOf(schema)).flatMap(([name, p]) => resultRows(p, `${path}.${name}`, !required.has(name)))
    // A record's values get a row unless they may be anything and say nothing (an event body's fields).
    for (const value of Object.values((schema.patternProperties ?? {}) as Record<string, TSchema>)) {
      if (value.type !== undefined || value.anyOf !== undefined || value.description !== undefined)
        rows.push(...resultRows(value, `${path}.*`, false))
    }
    return rows
  }
  return []
}

/**
 * JSON with objects and arrays on one line when they fit in `width` characters, expanded with a
 * two-space indent otherwise: long replies stay readable and short parts stay compact.
 */
function prettyJson(value: unknown, width = 100, indent = '', lead = 0): string {
  const flat = JSON.stringify(value) ?? 'null'
  if (typeof value !== 'object' || value === null || indent.length + lead + flat.length <= width) return flat
  const inner = `${indent}  `
  const lines = Array.isArray(value)
    ? value.map((v) => inner + prettyJson(v, width, inner, 0))
    : Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${prettyJson(v, width, inner, JSON.stringify(k).length + 2)}`)
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}']
  return `${open}\n${lines.join(',\n')}\n${indent}${close}`
}

const REQUEST_LABEL = 'Example request:'
const RESPONSE_LABEL = 'Example response:'

function methodSection(m: CompiledMethod, example: RpcExample | undefined): string[] {
  const out = [`### ${m.name}`, '', m.description, '']
  const params = paramRows(m.params)
  if (params.length === 0) out.push('Params: none.', '')
  else out.push('| param | type | required | description |', '|---|---|---|---|', ...params, '')
  out.push('Result:', '', '| field | type | notes |', '|---|---|---|', ...resultRows(m.result, 'data', false), '')
  if (m.paged === true) out.push('The reply carries `page`.', '')
  if (example === undefined) out.push('Example: pending (run `bun scripts/docs/gen-rpc-doc.ts`).', '')
  else
    out.push(
      REQUEST_LABEL,
      '',
      '```json',
      prettyJson(example.request),
      '```',
      '',
      RESPONSE_LABEL,
      '',
      '```json',
      prettyJson(example.response),
      '```',
      '',
    )
  return out
}

function wrapperSection(): string[] {
  return [
    '| field | type | notes |',
    '|---|---|---|',
    ...Object.entries(WrapperFields).flatMap(([name, s]) => resultRows(s, name, false)),
    "| `data` | per method | the method's result, described under each method below |",
    ...resultRows(PageSchema, 'page', true),
  ]
}

function errorSection(): string[] {
  return [
    '| code | HTTP | when | `data.reason` |',
    '|---|---|---|---|',
    '| -32700 | 200 | the body is not JSON | `PARSE_ERROR` |',
    `| -32600 | 200 | not a JSON-RPC 2.0 request object (\`jsonrpc\` must be "2.0", \`method\` a string, \`id\` a string, number or null); an empty batch; a batch of more than ${QUERY_BATCH_MAX} items (the whole batch is refused with one error reply, \`id\` null); a body over ${REQUEST_BODY_MAX_BYTES} bytes (\`id\` null) | \`INVALID_REQUEST\`, \`BATCH_TOO_LARGE\`, \`REQUEST_TOO_LARGE\` |`,
    '| -32601 | 200 | no method of that name | `METHOD_NOT_FOUND` |',
    "| -32602 | 200 | `params` is not an object, or fails the method's schema (`data.field` names the first offending field, e.g. `params.address`); or it names something that does not exist (`MarketNotFound`, `BlockNotFound`, a malformed cursor) | `INVALID_PARAMS`, `MarketNotFound`, ... |",
    `| -32602 | 400 | \`offset\` above ${OFFSET_MAX} on \`getUserFills\` and \`getOrderFills\` (\`data.max\` ${OFFSET_MAX}): page deeper with \`cursor\`. HTTP 400 for a single request; in a batch it is that item's error reply and the batch is HTTP 200 | \`OFFSET_TOO_DEEP\` |`,
    '| -32603 | 200 | an internal error, or the history index is not running (history reads) | `HISTORY_UNAVAILABLE` |',
    `| -32000 | 200 | the query did not finish within ${QUERY_TIMEOUT_MS / 1000} s, queueing included | \`TIMEOUT\` |`,
  ]
}

/** The markdown of docs/rpc.md; `examples` by method name (methods without one say so). */
export function renderRpcDoc(methods: readonly CompiledMethod[], examples: ReadonlyMap<string, RpcExample>): string {
  const withMarket = methods
    .filter((m) => 'market_id' in propertiesOf(m.params) && 'symbol' in propertiesOf(m.params))
    .map((m) => `\`${m.name}\``)
  const out: string[] = [
    '# JSON-RPC read API',
    '',
    '<!-- Generated from the method table (src/api/methods/*-methods.ts) by `bun scripts/docs/gen-rpc-doc.ts`, with example replies of a dev node after the scenario of test/support/rpc-scenario.ts; test/docs-rpc.test.ts checks it is current. -->',
    '',
    `The node answers ${methods.length} read methods on \`POST /api/v1/query\` (JSON-RPC 2.0). Errors are in [errors.md](errors.md), limits in [limits.md](limits.md). \`rpc.discover\` returns the same table as an OpenRPC document, with each method's params and result schemas. Writes go to \`POST /api/v1/action\` (docs/actions.md).`,
    '',
    '## Requests and replies',
    '',
    '- A request is `{"jsonrpc": "2.0", "id": 1, "method": "getAccount", "params": {"address": "0x..."}}`. Params are by name, in an object; a method without params may leave `params` out. An unknown param is refused (-32602).',
    `- A batch is an array of at most ${QUERY_BATCH_MAX} requests, answered by an array of replies in the same order (HTTP 200). Every item answers on its own: an item that fails, whatever the error, gets its own error reply and the others their results. More than ${QUERY_BATCH_MAX} items refuse the whole batch (-32600).`,
    "- A request object without an `id` member is a notification (JSON-RPC 2.0): it gets no reply object. A read nobody waits for is not run. A single notification, or a batch of only notifications, is answered HTTP 204 with no body; in a mixed batch the notifications are left out of the reply array. (On `/api/v1/action` a notification's action is admitted and run like any other, and the reply is HTTP 204.)",
    '- Errors come back with HTTP 200 and an `error` object `{code, message, data: {reason, field?}}`; the one exception is the too-deep `offset` of a single request below (HTTP 400).',
    `- A query times out after ${QUERY_TIMEOUT_MS / 1000} s, queueing included (-32000); the node's \`--query-timeout-ms\` flag changes that.`,
    "- A read sees whole, committed blocks only. The node applies a block's actions during the last few milliseconds before the block's tick ([architecture.md](architecture.md#threads)); a request that arrives then is answered just after the block commits, and shows it.",
    '- A market is named by `market_id` or `symbol`; `market_id` takes precedence and may name a Delisted market; `symbol` matches exactly or by prefix, case-insensitive (the shortest match wins) and skips Delisted markets ([symbol resolution](markets.md#symbol-resolution)). ' +
      `Without either, a list applies no market filter and a read about one market is refused (-32602). Methods that take both: ${withMarket.join(', ')}.`,
    "- Amounts are decimal strings: balances, fees and notionals with up to 6 decimals, prices and sizes at the market's precision. Addresses come back lower-case.",
    '',
    "A reply's `result` is the chain wrapper:",
    '',
    ...wrapperSection(),
    '',
    '## Errors and limits',
    '',
    ...errorSection(),
    '',
    'Per-method limits (page sizes, depths) are in the params tables.',
    '',
    '## Methods',
    '',
    '| method | params |',
    '|---|---|',
    ...methods.map(
      (m) =>
        `| [${m.name}](#${m.name.toLowerCase()}) | ${
          Object.keys(propertiesOf(m.params))
            .map((p) => `\`${p}\``)
            .join(', ') || 'none'
        } |`,
    ),
    '',
  ]
  for (const m of methods) out.push(...methodSection(m, examples.get(m.name)))
  return out.join('\n')
}

/** The examples written in a rendered doc, by method name: the inverse of the example part of renderRpcDoc. */
export function parseRpcDocExamples(doc: string): Map<string, RpcExample> {
  const out = new Map<string, RpcExample>()
  const block = (label: string) => `${label}\\n\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``
  for (const section of doc.split(/^### /m).slice(1)) {
    const name = section.slice(0, section.indexOf('\n'))
    const request = new RegExp(block(REQUEST_LABEL)).exec(section)
    const response = new RegExp(block(RESPONSE_LABEL)).exec(section)
    if (request !== null && response !== null) out.set(name, { request: JSON.parse(request[1]!), response: JSON.parse(response[1]!) })
  }
  return out
}
