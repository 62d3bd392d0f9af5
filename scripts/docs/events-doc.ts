// Renders docs/events.md from the event body schemas (src/wire/events/): a table of contents by
// kind, then each sub_kind by area with its description and a table of its body's fields. The doc
// is generated, and test/docs-events.test.ts keeps it current.
import type { TSchema } from '@sinclair/typebox'
import { DECIMAL_PATTERN, SIGNED_DECIMAL_PATTERN } from '../../src/wire/events/fields.ts'
import { EVENT_AREAS, EVENT_KIND_OF, EVENT_KINDS, EVENT_SUB_KINDS, type EventKind } from '../../src/wire/events/index.ts'

/** What each event family holds. */
const KIND_DESCRIPTIONS: Record<EventKind, string> = {
  Exec: 'order execution: accepted, resting, filled, done, expired',
  Core: 'account-level changes (balances, settings, agents, referrals, oracle quotes) and rejections',
  Trigger: 'trigger orders (the `triggerUpdates` topic)',
  Oco: 'OCO pairs (the `triggerUpdates` topic)',
  Liquidation: 'liquidations, bad debt and delist settlements',
  Bridge: 'deposits and withdrawals through the bridge',
  Ops: 'market operations and Admin actions, each naming its signer (getAdminAuditLog)',
}

/** A one-line description of a field schema's type. */
export function typeLabel(schema: TSchema): string {
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).map(typeLabel).join(' \\| ')
  switch (schema.type) {
    case 'string':
      if (schema.pattern === DECIMAL_PATTERN) return `decimal (${schema.unit})`
      if (schema.pattern === SIGNED_DECIMAL_PATTERN) return `signed decimal (${schema.unit})`
      if (schema.pattern === '^0x[0-9a-f]{40}$') return 'address'
      if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^(0|[1-9][0-9]*)')) return 'decimal'
      return 'string'
    case 'integer':
      return 'integer'
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return '`null`'
    case 'array':
      return `${typeLabel(schema.items as TSchema)}[]`
    case 'object':
      return 'object'
    default:
      return 'any'
  }
}

/** The table rows of an object schema's fields, nested objects flattened with dots. */
function fieldRows(schema: TSchema, prefix = ''): string[] {
  const rows: string[] = []
  const props = (schema.properties ?? {}) as Record<string, TSchema>
  const required = new Set<string>((schema.required ?? []) as string[])
  for (const [name, prop] of Object.entries(props)) {
    const type = `${typeLabel(prop)}${required.has(name) ? '' : ' (optional)'}`
    const desc = String(prop.description ?? '').replaceAll('|', '\\|')
    rows.push(`| \`${prefix}${name}\` | ${type} | ${desc} |`)
    if (prop.type === 'object') rows.push(...fieldRows(prop, `${prefix}${name}.`))
  }
  return rows
}

const anchor = (subKind: string) => `#${subKind.toLowerCase()}`

export function renderEventsDoc(): string {
  const out: string[] = [
    '# Chain events',
    '',
    '<!-- Generated from src/wire/events/*.ts by `bun scripts/docs/gen-events-doc.ts`; test/docs-events.test.ts checks it is current. -->',
    '',
    `The chain emits ${EVENT_SUB_KINDS.length} events (\`sub_kind\`) in ${EVENT_KINDS.length} families (\`kind\`). Each reaches clients as an EventView ` +
      '(getBlockEvents, the events of a transaction, the /action reply) whose `body` is the event itself, described here by its `sub_kind`. ' +
      'The body carries every field of the event, `kind` and `sub_kind` included:',
    '',
    "- prices, sizes and money are decimal strings, minimal (no trailing zeros): a **price** at the market's `price_decimals`, " +
      'a **size** at its `size_decimals`, an **amount** at 6 decimals (SCALE_6). In the engine these fields are integers named ' +
      '`x_ticks` (prices) and `x_lots` (sizes); on the wire they are named `x`.',
    '- a field marked *optional* is absent from the body when it has no value; a field whose type includes `null` is always present.',
    '- `account` is the account the event is about (the taker of a fill); the events the chain raises about no account (quote staleness, the reject-storm alarm) have a `null` one.',
    '',
    'The EventView around a body places it: `height`, `seq` (its order in the block) and `envelope_idx`, always a number. An event an envelope caused carries ' +
      "that envelope's index; an event the block raised itself (order and trigger expiry and the dead man's switch before the envelopes; quote-stale halts " +
      'and resumes, trigger fires, liquidations and bad debt after them) carries the block\'s `envelope_count`, an index no envelope has ("after the last ' +
      'envelope"), and its `seq` says where it ran ([history-api.md](history-api.md#blocks-envelopes-transactions)).',
    '',
    'The schemas are the TypeBox schemas of `src/wire/events/`; `decodeEventBody` parses a body and narrows on `sub_kind`. ' +
      '`src/wire/events/events.test.ts` checks the bodies of chain workloads against them.',
    '',
    '## Contents',
    '',
    '| kind | events | what |',
    '|---|---|---|',
  ]
  for (const kind of EVENT_KINDS) {
    const subKinds = EVENT_SUB_KINDS.filter((s) => EVENT_KIND_OF[s] === kind)
    out.push(`| ${kind} | ${subKinds.map((s) => `[${s}](${anchor(s)})`).join(', ')} | ${KIND_DESCRIPTIONS[kind]} |`)
  }
  out.push('')
  for (const area of EVENT_AREAS) {
    out.push(`## ${area.title}`, '')
    for (const schema of area.schemas as readonly TSchema[]) {
      const subKind = schema.properties.sub_kind.const as string
      out.push(`### ${subKind}`, '', `kind \`${schema.properties.kind.const}\`. ${schema.description}`, '')
      out.push('| field | type | description |', '|---|---|---|', ...fieldRows(schema), '')
    }
  }
  return out.join('\n')
}
