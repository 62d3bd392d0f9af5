// Turns a chain event into its JSON body (EventView.body, docs/events.md): integer fields become
// decimal strings at the market's precision. Fields named *_ticks are prices, *_lots sizes (the
// suffix is dropped on the wire), bigints are SCALE_6 amounts. The bodies' shapes are the schemas
// of wire/events/ (EventBody); wire/events/events.test.ts checks every body of chain workloads
// against them, and WireBody below states the same mapping at type level for the chain's event
// types.
import { formatDecimal } from '../lib/decimal.ts'
import type { EventBody } from './events/index.ts'

export interface MarketDecimals {
  readonly priceDecimals: number
  readonly sizeDecimals: number
}

/** The wire body of an event; marketDecimals is looked up by the event's market_id. */
export function eventBody(event: object, decimals: MarketDecimals | undefined): EventBody {
  const out: Record<string, unknown> = {}
  const fields = event as Record<string, unknown>
  // for...in over a plain object: its own keys in the order Object.entries gives, without the
  // array per entry (a block of 50-order batches turns 15,000 events into bodies).
  for (const key in fields) {
    const value = fields[key]
    if (value === undefined) continue
    if (typeof value === 'bigint') {
      out[key] = formatDecimal(value, 6)
      continue
    }
    if (typeof value === 'number' && decimals !== undefined) {
      const scaled = scaledField(key)
      if (scaled !== undefined) {
        const places = scaled.unit === 'price' ? decimals.priceDecimals : decimals.sizeDecimals
        out[scaled.wireKey] = formatDecimal(value, places)
        continue
      }
    }
    out[key] = value
  }
  return out as EventBody
}

/** How a numeric engine field goes on the wire: x_ticks a price as x, x_lots a size as x, *_size_before/after a size. */
interface ScaledField {
  readonly wireKey: string
  readonly unit: 'price' | 'size'
}

/** scaledField's answers by key (the engine's field names are a small fixed set). */
const scaledFields = new Map<string, ScaledField | null>()

function scaledField(key: string): ScaledField | undefined {
  let field = scaledFields.get(key)
  if (field === undefined) {
    if (key.endsWith('_ticks')) field = { wireKey: key.slice(0, -6), unit: 'price' }
    else if (key.endsWith('_lots')) field = { wireKey: key.slice(0, -5), unit: 'size' }
    else if (key.endsWith('_size_before') || key.endsWith('_size_after')) field = { wireKey: key, unit: 'size' }
    else field = null
    scaledFields.set(key, field)
  }
  return field ?? undefined
}

/** The wire name of an engine field: x_ticks and x_lots lose their suffix. */
type WireKey<K extends string> = K extends `${infer P}_ticks` ? P : K extends `${infer P}_lots` ? P : K

/** The wire value of an engine field (a market event's; the decimals are known). */
type WireValue<K extends string, V> = V extends bigint
  ? string
  : V extends number
    ? K extends `${string}_ticks` | `${string}_lots` | `${string}_size_before` | `${string}_size_after`
      ? string
      : V
    : V

/**
 * eventBody() at type level: the body of a chain event type E, an undefined-able field optional.
 * A test holds the chain's event types to the schemas through it (wire/events/events.test.ts).
 */
export type WireBody<E> = E extends object
  ? { [K in keyof E as K extends string ? (undefined extends E[K] ? never : WireKey<K>) : never]: WireValue<K & string, E[K]> } & {
      [K in keyof E as K extends string ? (undefined extends E[K] ? WireKey<K> : never) : never]?: WireValue<
        K & string,
        Exclude<E[K], undefined>
      >
    }
  : never
