// Building blocks of the read methods' result schemas (the `data` of a /query reply): the forms in
// which the node writes values, which are narrower than what it accepts (lower-case hex, minimal
// decimal strings), and the closed value sets the results share.
import { type TProperties, type TSchema, Type } from '@sinclair/typebox'
import { decimalPattern } from '../../lib/decimal.ts'

/** A decimal string that may be negative (PnL, signed sizes, balances after bad debt). */
export const SignedDecimalString = (description: string) =>
  Type.String({ pattern: decimalPattern({ signed: true }), maxLength: 41, description })

/** An address as the node writes it: 0x and 40 lower-case hex digits. */
export const Address = (description: string) => Type.String({ pattern: '^0x[0-9a-f]{40}$', description })

/** A 32-byte hash or digest as the node writes it: 0x and 64 lower-case hex digits. */
export const Hash32 = (description: string) => Type.String({ pattern: '^0x[0-9a-f]{64}$', description })

/** A result object: every field declared, so an undeclared one fails the check. */
export const Strict = <T extends TProperties>(properties: T, description?: string) =>
  Type.Object(properties, description === undefined ? { additionalProperties: false } : { additionalProperties: false, description })

/** A value or null; the description says when it is null. */
export const Nullable = <T extends TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description })

/** A map keyed by market id (a decimal integer string, as JSON object keys are strings). */
export const ByMarketId = <T extends TSchema>(value: T, description: string) =>
  Type.Record(Type.String({ pattern: '^(0|[1-9][0-9]*)$' }), value, { additionalProperties: false, description })

export const MarketLifecycleSchema = Type.Union(
  [Type.Literal('Created'), Type.Literal('Active'), Type.Literal('Halted'), Type.Literal('DelistPending'), Type.Literal('Delisted')],
  { description: 'market lifecycle (docs/markets.md#lifecycle)' },
)
