// The venue factory: the Venue a spec names (venue-spec.ts), with Hyperliquid's API base URL
// overridable (--hl-api-url: a proxy, or the local implementation tests start).
import { HyperliquidVenue } from './hyperliquid.ts'
import { PerpdVenue } from './perpd.ts'
import type { Venue } from './venue.ts'
import type { VenueSpec } from './venue-spec.ts'

export type { Venue } from './venue.ts'
export { parseVenueSpec, type VenueSpec, venueSpecText } from './venue-spec.ts'

export interface VenueFactoryOptions {
  /** Hyperliquid's API base URL instead of the network's own (https://api.hyperliquid.xyz, https://api.hyperliquid-testnet.xyz). */
  readonly hlApiUrl?: string | undefined
}

export function createVenue(spec: VenueSpec, options: VenueFactoryOptions = {}): Venue {
  if (spec.kind === 'perpd') return new PerpdVenue(spec.url)
  return new HyperliquidVenue({ network: spec.network, apiUrl: options.hlApiUrl })
}
