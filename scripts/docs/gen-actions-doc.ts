// Writes docs/actions.md from the action registry.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ACTION_KINDS } from '../../src/wire/actions.ts'
import { renderActionsDoc } from './actions-doc.ts'

const path = join(import.meta.dir, '..', '..', 'docs', 'actions.md')
writeFileSync(path, renderActionsDoc(ACTION_KINDS))
console.log(`wrote ${path}: ${ACTION_KINDS.length} action kinds`)
