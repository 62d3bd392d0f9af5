// docs/events.md is generated from the event body schemas (src/wire/events/).
import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderEventsDoc } from '../scripts/docs/events-doc.ts'
import { EVENT_SUB_KINDS } from '../src/wire/events/index.ts'

describe('docs/events.md', () => {
  test('is current with the schemas (regenerate with bun scripts/docs/gen-events-doc.ts)', () => {
    const doc = readFileSync(join(import.meta.dir, '..', 'docs', 'events.md'), 'utf8')
    expect(doc).toBe(renderEventsDoc())
  })

  test('lists every sub_kind under its own heading', () => {
    const doc = renderEventsDoc()
    for (const subKind of EVENT_SUB_KINDS)
      expect({ subKind, listed: doc.includes(`\n### ${subKind}\n`) }).toEqual({ subKind, listed: true })
  })
})
