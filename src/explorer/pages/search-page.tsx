// The search screen: GET /api/v1/search resolves a height, a block digest, a transaction hash or an
// address the index has seen; one match opens its page at once, several are listed.
import { useEffect } from 'preact/hooks'
import { getData, qs, type SearchHit } from '../api.ts'
import { amount, short, time } from '../format.ts'
import { useLoad } from '../hooks.ts'
import { Failure, Loading } from '../parts/status.tsx'
import { href } from '../router.ts'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** The page a hit opens. */
function hitHref(hit: SearchHit): string {
  switch (hit.type) {
    case 'block':
      return href.block(hit.height)
    case 'tx':
      return href.tx(hit.tx_hash)
    case 'account':
      return href.account(hit.address)
  }
}

export function SearchPage({ q }: { q: string }) {
  const hits = useLoad(() => getData<SearchHit[]>(`/api/v1/search?${qs({ q })}`), [q])
  const only = hits.data?.length === 1 ? hits.data[0] : undefined
  // An address the index has not seen may still be an account of the chain: open its page.
  const target = only !== undefined ? hitHref(only) : hits.data?.length === 0 && ADDRESS.test(q) ? href.account(q) : undefined
  useEffect(() => {
    if (target !== undefined) location.replace(target)
  }, [target])

  if (hits.error !== undefined) return <Failure error={hits.error} />
  if (hits.data === undefined || target !== undefined) return <Loading />
  return (
    <section>
      <h1>Search: {q}</h1>
      {hits.data.length === 0 ? (
        <p class="empty">
          Nothing matches. Search for an address (0x + 40 hex), a transaction hash or block digest (0x + 64 hex) or a block height.
        </p>
      ) : (
        <ul class="hits">
          {hits.data.map((hit) => (
            <li key={hitHref(hit)}>
              <a href={hitHref(hit)}>
                {hit.type === 'block' && `Block ${hit.height} · ${time(hit.timestamp_ms)} · ${short(hit.digest)}`}
                {hit.type === 'tx' && `Transaction ${short(hit.tx_hash)} · ${hit.action_kind} · block ${hit.height}`}
                {hit.type === 'account' && `Account ${hit.address} · ${hit.fills} fills · volume ${amount(hit.volume)}`}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
