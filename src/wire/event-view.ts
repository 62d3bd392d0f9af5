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
  for (const [key, value] of Object.entries(event)) {
    if (value === undefined) continue
    if (typeof value === 'bigint') out[key] = formatDecimal(value, 6)
    else if (typeof value === 'number' && key.endsWith('_ticks') && decimals !== undefined)
      out[key.slice(0, -6)] = formatDecimal(BigInt(value), decimals.priceDecimals)
    else if (typeof value === 'number' && key.endsWith('_lots') && decimals !== undefined)
      out[key.slice(0, -5)] = formatDecimal(BigInt(value), decimals.sizeDecimals)
    else if (typeof value === 'number' && (key.endsWith('_size_before') || key.endsWith('_size_after')) && decimals !== undefined)
      out[key] = formatDecimal(BigInt(value), decimals.sizeDecimals)
    else out[key] = value
  }
  return out as EventBody
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
