// The wire bodies of chain events (EventView.body, docs/events.md), one TypeBox schema per
// sub_kind. The body is what wire/event-view.ts eventBody() makes of a chain event: every field of
// the event, `kind` and `sub_kind` included, engine integers as decimal strings (x_ticks -> price
// `x`, x_lots -> size `x`, bigints -> SCALE_6 amounts), undefined fields left out.
// src/wire/events/events.test.ts runs chain workloads and checks every body they produce against
// these schemas, so consumers can decode a body with decodeEventBody() and switch on `sub_kind`
// without checking fields again. docs/events.md is generated from them
// (scripts/docs/gen-events-doc.ts).
import { type Static, type TObject, Type } from '@sinclair/typebox'
import { ACCESS_EVENT_SCHEMAS } from './access.ts'
import { ADMIN_EVENT_SCHEMAS } from './admin.ts'
import { CORE_EVENT_SCHEMAS } from './core.ts'
import type { EventKind } from './fields.ts'
import { FUNDS_EVENT_SCHEMAS } from './funds.ts'
import { MARGIN_EVENT_SCHEMAS } from './margin.ts'
import { MARKET_EVENT_SCHEMAS } from './markets.ts'
import { ORDER_EVENT_SCHEMAS } from './orders.ts'
import { TRIGGER_EVENT_SCHEMAS } from './triggers.ts'

export { EVENT_KINDS, type EventKind } from './fields.ts'

/** The schemas by area, in the order docs/events.md lists them. */
export const EVENT_AREAS = [
  { area: 'orders', title: 'Orders', schemas: ORDER_EVENT_SCHEMAS },
  { area: 'triggers', title: 'Triggers and OCO pairs', schemas: TRIGGER_EVENT_SCHEMAS },
  { area: 'margin', title: 'Margin and liquidation', schemas: MARGIN_EVENT_SCHEMAS },
  { area: 'markets', title: 'Markets and oracle', schemas: MARKET_EVENT_SCHEMAS },
  { area: 'funds', title: 'Funds and bridge', schemas: FUNDS_EVENT_SCHEMAS },
  { area: 'access', title: 'Agents, roles and freezing', schemas: ACCESS_EVENT_SCHEMAS },
  { area: 'admin', title: 'Exchange administration', schemas: ADMIN_EVENT_SCHEMAS },
  { area: 'core', title: 'Rejections', schemas: CORE_EVENT_SCHEMAS },
] as const

/** Every event body schema. */
export const EVENT_SCHEMAS = [
  ...ORDER_EVENT_SCHEMAS,
  ...TRIGGER_EVENT_SCHEMAS,
  ...MARGIN_EVENT_SCHEMAS,
  ...MARKET_EVENT_SCHEMAS,
  ...FUNDS_EVENT_SCHEMAS,
  ...ACCESS_EVENT_SCHEMAS,
  ...ADMIN_EVENT_SCHEMAS,
  ...CORE_EVENT_SCHEMAS,
] as const

/** The body of any chain event, discriminated by `sub_kind`. */
export const EventBodySchema = Type.Union([...EVENT_SCHEMAS], {
  description: 'the chain event with its fields by sub_kind (docs/events.md); prices, sizes and amounts are decimal strings',
})

export type EventBody = Static<typeof EventBodySchema>
export type EventSubKind = EventBody['sub_kind']
/** The body of one sub_kind. */
export type EventBodyOf<S extends EventSubKind> = Extract<EventBody, { sub_kind: S }>

type AnyEventSchema = TObject & { properties: { kind: { const: EventKind }; sub_kind: { const: string } } }

const schemaList: readonly AnyEventSchema[] = EVENT_SCHEMAS as unknown as readonly AnyEventSchema[]

/** The body schema of each sub_kind. */
export const EVENT_BODY_SCHEMAS: { readonly [S in EventSubKind]: TObject } = Object.fromEntries(
  schemaList.map((s) => [s.properties.sub_kind.const, s]),
) as unknown as { readonly [S in EventSubKind]: TObject }

/** The kind (event family) each sub_kind belongs to. */
export const EVENT_KIND_OF: { readonly [S in EventSubKind]: EventKind } = Object.fromEntries(
  schemaList.map((s) => [s.properties.sub_kind.const, s.properties.kind.const]),
) as unknown as { readonly [S in EventSubKind]: EventKind }

/** Every sub_kind, in schema order. */
export const EVENT_SUB_KINDS: readonly EventSubKind[] = schemaList.map((s) => s.properties.sub_kind.const as EventSubKind)

const SUB_KINDS: ReadonlySet<string> = new Set(EVENT_SUB_KINDS)

export const isEventSubKind = (s: string): s is EventSubKind => SUB_KINDS.has(s)

/**
 * Parses a stored event body (the node's bodyJson). Only `sub_kind` is checked: the bodies are the
 * chain's own, proven against the schemas by the event schema test, so the hot paths that read
 * every event of every block do no field-by-field validation.
 */
export function decodeEventBody(json: string): EventBody {
  return asEventBody(JSON.parse(json))
}

/** A parsed stored event body, with the same check as decodeEventBody. */
export function asEventBody(value: unknown): EventBody {
  const body = value as { sub_kind?: unknown } | null
  if (typeof body !== 'object' || body === null || typeof body.sub_kind !== 'string' || !SUB_KINDS.has(body.sub_kind)) {
    const json = JSON.stringify(value) ?? String(value)
    throw new Error(`not an event body of a known sub_kind: ${json.length > 120 ? `${json.slice(0, 120)}…` : json}`)
  }
  return body as EventBody
}

/**
 * The body of an event (an EventView, a ParsedEvent) known to be of sub_kind S, say the first event
 * of a PlaceOrder reply; throws when it is another event.
 */
export function bodyAs<S extends EventSubKind>(event: { readonly body: EventBody }, subKind: S): EventBodyOf<S> {
  if (event.body.sub_kind !== subKind) throw new Error(`expected a ${subKind} event, got ${event.body.sub_kind}`)
  return event.body as EventBodyOf<S>
}
