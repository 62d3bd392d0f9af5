// How the command line names a venue (docs/admin.md#venues): `hl:mainnet`, `hl:testnet` or
// `perpd:URL`. Parsed here, without the adapters, so the configuration can check it at start.

export type VenueSpec =
  | { readonly kind: 'hyperliquid'; readonly network: 'mainnet' | 'testnet' }
  | { readonly kind: 'perpd'; readonly url: string }

/** The spec of `text`, or the reason it is not one. */
export function parseVenueSpec(text: string): { ok: true; spec: VenueSpec } | { ok: false; reason: string } {
  const t = text.trim()
  if (t === 'hl:mainnet' || t === 'hl:testnet')
    return { ok: true, spec: { kind: 'hyperliquid', network: t === 'hl:mainnet' ? 'mainnet' : 'testnet' } }
  if (t.startsWith('perpd:')) {
    const raw = t.slice('perpd:'.length)
    let url: URL
    try {
      url = new URL(raw)
    } catch {
      return { ok: false, reason: `perpd:URL needs the venue node's http(s) URL, got ${JSON.stringify(raw)}` }
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return { ok: false, reason: `perpd:URL needs an http(s) URL, got ${JSON.stringify(raw)}` }
    return { ok: true, spec: { kind: 'perpd', url: raw.replace(/\/+$/, '') } }
  }
  return { ok: false, reason: `expected hl:mainnet, hl:testnet or perpd:URL, got ${JSON.stringify(t.slice(0, 80))}` }
}

/** The text form of a spec (what `parseVenueSpec` reads back). */
export function venueSpecText(spec: VenueSpec): string {
  return spec.kind === 'hyperliquid' ? `hl:${spec.network}` : `perpd:${spec.url}`
}
