// docs/actions.md is generated from the registry; every example must pass its own schema.
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderActionsDoc } from '../scripts/docs/actions-doc.ts'
import { REJECT_REASONS } from '../src/chain/index.ts'
import { ACTION_KINDS } from '../src/wire/actions.ts'
import { compileValidator } from '../src/wire/validate.ts'

describe('docs/actions.md', () => {
  test('is current with the registry (regenerate with bun scripts/docs/gen-actions-doc.ts)', () => {
    const doc = readFileSync(join(import.meta.dir, '..', 'docs', 'actions.md'), 'utf8')
    expect(doc).toBe(renderActionsDoc(ACTION_KINDS))
  })

  test.each(ACTION_KINDS.map((k) => [k.name, k] as const))('%s: the example passes the schema and the reasons exist', (_name, kind) => {
    const v = compileValidator(kind.schema).validate(kind.example, kind.name)
    expect(v).toEqual({ ok: true })
    for (const r of kind.rejects) expect(REJECT_REASONS as readonly string[]).toContain(r)
  })
})
