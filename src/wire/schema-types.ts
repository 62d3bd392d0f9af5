// Reusable TypeBox building blocks for wire shapes.
import { Type } from '@sinclair/typebox'
import { DECIMAL_MAX_LENGTH, decimalPattern } from '../lib/decimal.ts'

/** A non-negative decimal string: no sign, exponent or whitespace (docs/protocol.md#decimal-strings; the grammar: lib/decimal.ts). */
export const DecimalString = (description: string) => Type.String({ pattern: decimalPattern(), maxLength: DECIMAL_MAX_LENGTH, description })

/** A 0x-prefixed 20-byte address, any case. */
export const Address20 = (description = 'a 0x-prefixed 20-byte address') => Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description })

export const Hex32 = (description = 'a 0x-prefixed 32-byte hex string') => Type.String({ pattern: '^0x[0-9a-fA-F]{64}$', description })

/** A JSON integer id below 2^32. */
export const U32 = (description: string) => Type.Integer({ minimum: 0, maximum: 4_294_967_295, description })

/** A JSON integer below 2^53 (ids, heights, nonces, millisecond times). */
export const U53 = (description: string) => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description })

export const SideSchema = Type.Union([Type.Literal('Bid'), Type.Literal('Ask')], { description: 'Bid buys, Ask sells' })

export const TifSchema = Type.Union([Type.Literal('Gtc'), Type.Literal('Ioc'), Type.Literal('Fok'), Type.Literal('PostOnly')], {
  description: 'time in force',
})

export const RoleSchema = Type.Union(
  ['Admin', 'Trader', 'Quoter', 'Liquidator', 'BridgeDeposit', 'BridgeWithdraw'].map((r) => Type.Literal(r)),
  { description: 'an account role' },
)
