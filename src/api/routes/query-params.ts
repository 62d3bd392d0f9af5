// Schemas of query-string and path parameters, each with the 400 message a bad value gets
// (docs/errors.md#http-statuses; rest-route.ts reads them). The history family says
// `<name> must be an integer from 0 to <max>, got <value>`, the hot reads and the chain aliases
// `<name> must be a non-negative integer`.
import { type TLiteral, type TUnion, Type } from '@sinclair/typebox'
import type { InvalidMessage } from './rest-route.ts'

export const Opt = Type.Optional

const SAFE_MAX = Number.MAX_SAFE_INTEGER

const integerMessage =
  (max: number): InvalidMessage =>
  (name, sent) =>
    `${name} must be an integer from 0 to ${max}, got ${sent.slice(0, 40)}`

/** An integer of the history family, 0 to `max`. */
export const IntQuery = (description: string, max = SAFE_MAX) =>
  Type.Integer({ minimum: 0, maximum: max, description, invalid: integerMessage(max) })

/** A count of the hot reads and the chain aliases (depth, offset, limit), 0 to `max` (none: no maximum). */
export const CountQuery = (description: string, max?: number) =>
  Type.Integer({
    minimum: 0,
    ...(max === undefined ? {} : { maximum: max }),
    description,
    invalid: (name: string) => `${name} must be a non-negative integer`,
  })

/** A 0x-prefixed 20-byte address, any case (the routes lower-case it). */
export const AddressQuery = (description: string) =>
  Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description, invalid: (name: string) => `${name} must be a 0x-prefixed 20-byte address` })

/** One of a fixed set of values. */
export const EnumQuery = <T extends string>(values: readonly T[], description?: string): TUnion<TLiteral<T>[]> =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { ...(description === undefined ? {} : { description }), invalid: (name: string) => `${name} must be one of ${values.join(', ')}` },
  )

/** One of a fixed set of values; anything else is ignored (the route's default applies). */
export const LenientEnumQuery = <T extends string>(values: readonly T[], description: string): TUnion<TLiteral<T>[]> =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description, invalid: () => undefined },
  )

/** A switch: on for `true` or `1`, off otherwise. */
export const FlagQuery = (description: string) => Type.Boolean({ description: `${description}: true or 1 turns it on` })

export const TextQuery = (description: string) => Type.String({ description })

/** The market of a hot read or a chain alias. */
export const SymbolParams = Type.Object({
  symbol: Type.String({ description: 'symbol or base-asset prefix, case-insensitive' }),
})
