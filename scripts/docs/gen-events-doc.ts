// Writes docs/events.md from the event body schemas (src/wire/events/).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { EVENT_SUB_KINDS } from '../../src/wire/events/index.ts'
import { renderEventsDoc } from './events-doc.ts'

const path = join(import.meta.dir, '..', '..', 'docs', 'events.md')
writeFileSync(path, renderEventsDoc())
console.log(`wrote ${path}: ${EVENT_SUB_KINDS.length} event sub_kinds`)
