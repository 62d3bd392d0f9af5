// Hash routing: the page lives at `/` (the node serves nothing else outside /api), so every screen
// is a `#/…` address that can be bookmarked and shared.
import { useEffect, useState } from 'preact/hooks'

/** A screen of the explorer and its parameter. */
export type Route =
  | { readonly page: 'markets' }
  | { readonly page: 'market'; readonly symbol: string }
  | { readonly page: 'blocks'; readonly cursor: string | undefined }
  | { readonly page: 'block'; readonly id: string }
  | { readonly page: 'tx'; readonly hash: string }
  | { readonly page: 'account'; readonly address: string }
  | { readonly page: 'search'; readonly q: string }
  | { readonly page: 'unknown'; readonly path: string }

/** The route of a location hash such as `#/market/BTC-USD`. */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '') || '/'
  const [, head = '', ...rest] = path.split('/')
  const arg = decodeURIComponent(rest.join('/'))
  switch (head) {
    case '':
    case 'markets':
      return { page: 'markets' }
    case 'market':
      return arg ? { page: 'market', symbol: arg } : { page: 'markets' }
    case 'blocks':
      return { page: 'blocks', cursor: arg || undefined }
    case 'block':
      return { page: 'block', id: arg }
    case 'tx':
      return { page: 'tx', hash: arg }
    case 'account':
      return { page: 'account', address: arg }
    case 'search':
      return { page: 'search', q: arg }
    default:
      return { page: 'unknown', path }
  }
}

/** The hash of a screen. */
export const href = {
  markets: () => '#/markets',
  market: (symbol: string) => `#/market/${encodeURIComponent(symbol)}`,
  blocks: (cursor?: string) => (cursor === undefined ? '#/blocks' : `#/blocks/${encodeURIComponent(cursor)}`),
  block: (id: number | string) => `#/block/${id}`,
  tx: (hash: string) => `#/tx/${hash}`,
  account: (address: string) => `#/account/${address.toLowerCase()}`,
  search: (q: string) => `#/search/${encodeURIComponent(q)}`,
}

/** The current route; re-renders on every hash change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash))
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash))
    addEventListener('hashchange', onChange)
    return () => removeEventListener('hashchange', onChange)
  }, [])
  return route
}
