// Parameters the read methods share: an address, and a market named by market_id or symbol
// (docs/markets.md#symbol-resolution: market_id over symbol) with the -32602 errors a bad one gets.
import { Type } from '@sinclair/typebox'
import { type ChainState, type Market, resolveMarketFilter, resolveMarketRef } from '../../chain/index.ts'
import { normalizeAddress } from '../../lib/hex.ts'
import { RPC } from '../../wire/rpc-errors.ts'
import { U32 } from '../../wire/schema-types.ts'
import type { MarketRef } from '../../wire/symbols.ts'
import { MethodError } from './registry.ts'

/** The lower-case form of an address parameter; -32602 naming `field` when it is not a 20-byte hex address. */
export function requireAddress(raw: string, field = 'params.address'): string {
  const a = normalizeAddress(raw)
  if (a === undefined) throw new MethodError(RPC.invalidParams, `${field}: not a 20-byte hex address`, { field })
  return a
}

/**
 * The optional market_id and symbol params of a read method, to spread into its params object.
 * Each method may word the descriptions for itself; the constraints are the same everywhere.
 */
export function marketRefFields(descriptions: { readonly market_id?: string; readonly symbol?: string } = {}) {
  return {
    market_id: Type.Optional(U32(descriptions.market_id ?? 'the market; takes precedence over symbol')),
    symbol: Type.Optional(
      Type.String({ minLength: 1, maxLength: 20, description: descriptions.symbol ?? 'symbol or base-asset prefix, case-insensitive' }),
    ),
  }
}

/**
 * How a MarketNotFound message names a symbol: as given (`market btc not found`, the default) or
 * JSON-quoted (`market "btc" not found`, as getMarket* and getBootstrap word it).
 */
export interface MarketNotFoundWording {
  readonly quoteSymbol?: boolean
}

/** The -32602 MarketNotFound error of a reference that names no market, with the parameter that named it. */
export function marketNotFound(ref: MarketRef, wording: MarketNotFoundWording = {}): MethodError {
  const named = ref.market_id ?? (wording.quoteSymbol === true ? JSON.stringify(ref.symbol) : ref.symbol)
  const field = ref.market_id !== undefined ? 'params.market_id' : 'params.symbol'
  return new MethodError(RPC.invalidParams, `market ${named} not found`, { field, reason: 'MarketNotFound' })
}

/** The market a reference resolves to; MarketNotFound otherwise (also when it names none). */
export function resolveMarket(state: ChainState, ref: MarketRef, wording: MarketNotFoundWording = {}): Market {
  const m = resolveMarketRef(state, ref)
  if (m === undefined) throw marketNotFound(ref, wording)
  return m
}

/** The market a read must name: -32602 when neither market_id nor symbol is given, MarketNotFound when it does not resolve. */
export function requireMarket(state: ChainState, ref: MarketRef, wording: MarketNotFoundWording = {}): Market {
  if (ref.market_id === undefined && ref.symbol === undefined)
    throw new MethodError(RPC.invalidParams, 'params: give market_id or symbol', { field: 'params.symbol' })
  return resolveMarket(state, ref, wording)
}

/** The market filter of a read: undefined when it names no market (all markets), MarketNotFound when it names one that does not resolve. */
export function marketFilter(state: ChainState, ref: MarketRef, wording: MarketNotFoundWording = {}): Market | undefined {
  const filter = resolveMarketFilter(state, ref)
  if (filter.kind === 'missing') throw marketNotFound(ref, wording)
  return filter.kind === 'market' ? filter.market : undefined
}
