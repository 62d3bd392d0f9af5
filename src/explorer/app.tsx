// The explorer's frame: the header (navigation and the search box) and the screen of the route.
import { useState } from 'preact/hooks'
import { AccountPage } from './pages/account-page.tsx'
import { BlockPage } from './pages/block-page.tsx'
import { BlocksPage } from './pages/blocks-page.tsx'
import { MarketPage } from './pages/market-page.tsx'
import { MarketsPage } from './pages/markets-page.tsx'
import { SearchPage } from './pages/search-page.tsx'
import { TxPage } from './pages/tx-page.tsx'
import { href, type Route, useRoute } from './router.ts'

export function App() {
  const route = useRoute()
  return (
    <>
      <header class="top">
        <a class="brand" href={href.markets()}>
          perpd <span>explorer</span>
        </a>
        <nav>
          <a href={href.markets()} class={route.page === 'markets' || route.page === 'market' ? 'active' : ''}>
            Markets
          </a>
          <a href={href.blocks()} class={route.page === 'blocks' || route.page === 'block' || route.page === 'tx' ? 'active' : ''}>
            Blocks
          </a>
        </nav>
        <SearchBox />
      </header>
      <main>
        <Screen route={route} />
      </main>
      <footer>Read-only: this page signs nothing. Data from this node's /api/v1 reads and WebSocket.</footer>
    </>
  )
}

function Screen({ route }: { route: Route }) {
  switch (route.page) {
    case 'markets':
      return <MarketsPage />
    case 'market':
      return <MarketPage key={route.symbol} symbol={route.symbol} />
    case 'blocks':
      return <BlocksPage cursor={route.cursor} />
    case 'block':
      return <BlockPage key={route.id} id={route.id} />
    case 'tx':
      return <TxPage key={route.hash} hash={route.hash} />
    case 'account':
      return <AccountPage key={route.address} address={route.address} />
    case 'search':
      return <SearchPage key={route.q} q={route.q} />
    case 'unknown':
      return <p class="error">No such page: {route.path}</p>
  }
}

/** Search for an address, a transaction hash, a block height or a block digest: the search screen resolves it. */
function SearchBox() {
  const [q, setQ] = useState('')
  return (
    <form
      class="search"
      onSubmit={(e) => {
        e.preventDefault()
        const text = q.trim()
        if (text === '') return
        location.hash = href.search(text)
        setQ('')
      }}
    >
      <input
        type="search"
        name="q"
        aria-label="Search"
        placeholder="Address, tx hash, height or digest"
        value={q}
        onInput={(e) => setQ(e.currentTarget.value)}
      />
      <button type="submit">Search</button>
    </form>
  )
}
