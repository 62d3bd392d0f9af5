// Renders docs/actions.md from the action registry: every kind with its auth channel, payload
// schema, an example and its reject reasons. The doc is generated, and a test keeps it current.
import type { TSchema } from '@sinclair/typebox'
import type { ActionKindSpec } from '../../src/wire/action-kind.ts'
import { encodeType } from '../../src/wire/eip712.ts'

/** A one-line description of a schema's type for the field table. */
export function typeLabel(schema: TSchema): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).map(typeLabel).join(' \\| ')
  switch (schema.type) {
    case 'string':
      return schema.pattern === '^(0|[1-9][0-9]*)(\\.[0-9]+)?$'
        ? 'decimal string'
        : schema.pattern === '^0x[0-9a-fA-F]{40}$'
          ? 'address'
          : 'string'
    case 'integer':
      return 'integer'
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'null':
      return 'null'
    case 'array':
      return `${typeLabel(schema.items as TSchema)}[]`
    case 'object':
      return 'object'
    default:
      return 'any'
  }
}

function limits(schema: TSchema): string {
  const parts: string[] = []
  if (schema.minimum !== undefined) parts.push(`min ${schema.minimum}`)
  if (schema.maximum !== undefined) parts.push(`max ${schema.maximum}`)
  if (schema.maxLength !== undefined) parts.push(`max length ${schema.maxLength}`)
  if (schema.maxItems !== undefined) parts.push(`at most ${schema.maxItems} items`)
  return parts.join(', ')
}

/** Rows for an object schema's properties, nested objects and arrays of objects flattened with dots. */
function fieldRows(schema: TSchema, prefix = ''): string[] {
  const rows: string[] = []
  const props = (schema.properties ?? {}) as Record<string, TSchema>
  const required = new Set<string>((schema.required ?? []) as string[])
  for (const [name, prop] of Object.entries(props)) {
    const desc = [prop.description, limits(prop)].filter(Boolean).join('; ')
    rows.push(`| \`${prefix}${name}\` | ${typeLabel(prop)} | ${required.has(name) ? 'yes' : 'no'} | ${desc.replaceAll('|', '\\|')} |`)
    if (prop.type === 'object') rows.push(...fieldRows(prop, `${prefix}${name}.`))
    if (prop.type === 'array' && (prop.items as TSchema).type === 'object')
      rows.push(...fieldRows(prop.items as TSchema, `${prefix}${name}[].`))
  }
  return rows
}

export function renderActionsDoc(kinds: readonly ActionKindSpec[]): string {
  const out: string[] = [
    '# Action kinds',
    '',
    '<!-- Generated from src/wire/actions/*.ts by `bun scripts/docs/gen-actions-doc.ts`; test/docs.test.ts checks it is current. -->',
    '',
    `The node accepts ${kinds.length} action kinds on \`POST /api/v1/action\` (envelope and signing: [protocol.md](protocol.md#envelope); reject reasons: [errors.md](errors.md#reject-reasons)). ` +
      'Each is listed by `getActionsMeta` with its auth channel, role and `master_only`. A kept-reject consumes the nonce; ' +
      'refusals at admission (schema, signature, nonce, role) do not.',
    '',
    '| kind | auth | role | master_only |',
    '|---|---|---|---|',
    ...kinds.map((k) => `| [${k.name}](#${k.name.toLowerCase()}) | ${k.auth} | ${k.role ?? '-'} | ${k.masterOnly} |`),
    '',
  ]
  for (const k of kinds) {
    out.push(
      `## ${k.name}`,
      '',
      k.description,
      '',
      `- auth: \`${k.auth}\`${k.role ? `, role \`${k.role}\`` : ''}${k.masterOnly ? ', master only' : ''}`,
    )
    if (k.typedFields)
      out.push(
        `- EIP-712 type: \`${encodeType(`Perpd:${k.name}`, k.typedFields)}\` ([user-signed actions](protocol.md#user-signed-actions))`,
      )
    out.push('', '| field | type | required | notes |', '|---|---|---|---|', ...fieldRows(k.schema), '')
    out.push('Example:', '', '```json', JSON.stringify({ [k.name]: k.example }), '```', '')
    out.push(`Kept-reject reasons: ${k.rejects.length === 0 ? 'none' : k.rejects.map((r) => `\`${r}\``).join(', ')}.`, '')
  }
  return out.join('\n')
}
