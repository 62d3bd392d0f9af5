// docs/rpc.md is generated from the /query method table with real example replies: everything but
// the replies must be current with the table, and every reply must pass the method's schemas.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseRpcDocExamples, renderRpcDoc } from '../scripts/docs/rpc-doc.ts'
import { resultWrapperSchema } from '../src/api/methods/openrpc.ts'
import { queryMethodTable } from '../src/api/routes/query-routes.ts'
import { compileValidator } from '../src/wire/validate.ts'
import { SCENARIO_PARAMS } from './support/rpc-scenario.ts'

const methods = [...queryMethodTable.values()]
const doc = readFileSync(join(import.meta.dir, '..', 'docs', 'rpc.md'), 'utf8')
const examples = parseRpcDocExamples(doc)

describe('docs/rpc.md', () => {
  test('is current with the method table (regenerate with bun scripts/docs/gen-rpc-doc.ts)', () => {
    // Rendered again with the doc's own example requests and replies, the doc must come out the same.
    expect(doc).toBe(renderRpcDoc(methods, examples))
    expect([...examples.keys()]).toEqual(methods.map((m) => m.name))
  })

  test.each(methods.map((m) => [m.name, m] as const))(
    "%s: the example request is the method's example, the reply passes its schemas",
    (name, m) => {
      const example = examples.get(name)!
      expect(example.request).toMatchObject({ jsonrpc: '2.0', id: 1, method: name })
      // The scenario's ids stand in for the example's placeholders; every other param is the example's.
      const sent = example.request.params
      const declared = m.example ?? {}
      expect(Object.keys(sent)).toEqual(Object.keys(declared))
      for (const [k, v] of Object.entries(declared)) if (!(SCENARIO_PARAMS as readonly string[]).includes(k)) expect(sent[k]).toEqual(v)
      expect(m.validator.validate(sent, 'params')).toEqual({ ok: true })

      const reply = example.response as { jsonrpc: string; id: number; result?: unknown; error?: unknown }
      expect(reply).toMatchObject({ jsonrpc: '2.0', id: 1 })
      expect(reply.error).toBeUndefined()
      expect(m.result).toBeDefined()
      expect(compileValidator(resultWrapperSchema(m)).validate(reply.result, 'result')).toEqual({ ok: true })
    },
  )
})
