// Turns a chain event into its JSON body (EventView.body, spec §2.3): integer fields become decimal
// strings at the market's precision. Fields named *_ticks are prices, *_lots sizes (the suffix is
// dropped on the wire), bigints are SCALE_6 amounts.
import { formatDecimal } from '../lib/decimal.ts'

export interface MarketDecimals {
  readonly priceDecimals: number
  readonly sizeDecimals: number
}

/** The wire body of an event; marketDecimals is looked up by the event's market_id. */
export function eventBody(event: object, decimals: MarketDecimals | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(event)) {
    if (value === undefined) continue
    if (typeof value === 'bigint') out[key] = formatDecimal(value, 6)
    else if (typeof value === 'number' && key.endsWith('_ticks') && decimals !== undefined) out[key.slice(0, -6)] = formatDecimal(BigInt(value), decimals.priceDecimals)
    else if (typeof value === 'number' && key.endsWith('_lots') && decimals !== undefined) out[key.slice(0, -5)] = formatDecimal(BigInt(value), decimals.sizeDecimals)
    else if (typeof value === 'number' && (key.endsWith('_size_before') || key.endsWith('_size_after')) && decimals !== undefined) out[key] = formatDecimal(BigInt(value), decimals.sizeDecimals)
    else out[key] = value
  }
  return out
}
