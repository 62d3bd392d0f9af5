// Building blocks of the event body schemas (src/wire/events/*.ts): the value forms eventBody()
// writes (wire/event-view.ts) and the closed value sets events share. Decimal strings are minimal
// (formatDecimal: no trailing fractional zeros, no "-0"); each carries a `unit` option (price, size
// or amount) that docs/events.md shows in its type column.
import { type TLiteral, type TObject, type TProperties, type TSchema, type TUnion, Type } from '@sinclair/typebox'
import { NORMAL_DECIMAL_PATTERN, SIGNED_NORMAL_DECIMAL_PATTERN } from '../../lib/decimal.ts'

/** A minimal non-negative decimal string as formatDecimal writes it. */
export const DECIMAL_PATTERN = NORMAL_DECIMAL_PATTERN
/** A minimal decimal string that may be negative (never "-0"). */
export const SIGNED_DECIMAL_PATTERN = SIGNED_NORMAL_DECIMAL_PATTERN

/** What a decimal string counts: a price (px precision), a size (sz precision) or money (SCALE_6). */
export type DecimalUnit = 'price' | 'size' | 'amount'

const decimal = (unit: DecimalUnit, signed: boolean, description: string) =>
  Type.String({ pattern: signed ? SIGNED_DECIMAL_PATTERN : DECIMAL_PATTERN, unit, description })

/** A price at the market's price_decimals (an engine field `x_ticks`, named `x` on the wire). */
export const Price = (description: string) => decimal('price', false, description)
/** A size at the market's size_decimals (an engine field `x_lots`, named `x` on the wire). */
export const Size = (description: string) => decimal('size', false, description)
/** A signed size (long > 0, short < 0) at the market's size_decimals. */
export const SignedSize = (description: string) => decimal('size', true, description)
/** Money at SCALE_6 (6 decimals): balances, notionals, fees, PnL. */
export const Amount = (description: string) => decimal('amount', false, description)
/** Money at SCALE_6 that may be negative. */
export const SignedAmount = (description: string) => decimal('amount', true, description)

/** An address as the chain writes it: 0x and 40 lower-case hex digits. */
export const Address = (description: string) => Type.String({ pattern: '^0x[0-9a-f]{40}$', description })

/** A JSON integer, at least 0 (ids, counts, millisecond times). */
export const Count = (description: string) => Type.Integer({ minimum: 0, description })

/** A value or null; the description says when it is null. */
export const Nullable = <T extends TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description })

/** A closed set of strings. */
export const Enum = <const T extends readonly string[]>(
  values: T,
  description: string,
): TUnion<{ -readonly [K in keyof T]: TLiteral<T[K] & string> }> =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description },
  ) as never

export const MarketId = (description = 'the market') => Count(description)
export const OrderId = (description: string) => Count(description)

export const SideSchema = Enum(['Bid', 'Ask'], 'Bid buys, Ask sells')
export const TifSchema = Enum(['Gtc', 'Ioc', 'Fok', 'PostOnly'], 'time in force')
export const RoleSchema = Enum(['Admin', 'Trader', 'Quoter', 'Liquidator', 'BridgeDeposit', 'BridgeWithdraw'], 'an account role')
export const MarginModeSchema = Enum(
  ['Cross', 'Isolated'],
  "Cross: margined by the account's cross balance; Isolated: by the position's own margin",
)
export const LifecycleSchema = Enum(
  ['Created', 'Active', 'Halted', 'DelistPending', 'Delisted'],
  'market lifecycle (docs/markets.md#lifecycle)',
)
export const TriggerOrderTypeSchema = Enum(
  ['market', 'limit'],
  'market: fires as an IOC at the mark moved by the slippage bound; limit: fires as an order at limit_price',
)
export const TriggerDirectionSchema = Enum(
  ['Above', 'Below'],
  'fires when the mark reaches trigger_price from below (Above) or from above (Below)',
)

/** A reject reason (docs/errors.md#reject-reasons). The set grows with the chain; docs/actions.md lists the reasons of each action kind. */
export const RejectReasonSchema = (description: string) => Type.String({ minLength: 1, description })

/** Event families (docs/events.md). */
export type EventKind = 'Exec' | 'Core' | 'Oco' | 'Liquidation' | 'Trigger' | 'Bridge' | 'Ops'
export const EVENT_KINDS: readonly EventKind[] = ['Exec', 'Core', 'Trigger', 'Oco', 'Liquidation', 'Bridge', 'Ops']

export type EventSchema<K extends EventKind, S extends string, P extends TProperties> = TObject<
  { kind: TLiteral<K>; sub_kind: TLiteral<S> } & P
>

/**
 * The body schema of one event sub_kind: `kind` and `sub_kind` first (eventBody copies every field
 * of the event, these included), then the event's fields. Undeclared fields fail the check.
 */
export function eventSchema<K extends EventKind, S extends string, P extends TProperties>(
  kind: K,
  subKind: S,
  description: string,
  properties: P,
): EventSchema<K, S, P> {
  return Type.Object(
    {
      kind: Type.Literal(kind, { description: 'the event family' }),
      sub_kind: Type.Literal(subKind, { description: 'the event' }),
      ...properties,
    },
    { additionalProperties: false, title: subKind, description },
  ) as EventSchema<K, S, P>
}
