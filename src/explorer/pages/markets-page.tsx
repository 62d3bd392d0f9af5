// The markets screen: every market with its lifecycle and mark (getMarkets), the top of its book
// and today's notional volume (the hot summary), its 24 h volume (the hourly candles of the last
// 24 hours) and its open interest. Refreshed every few seconds.
import { type Candle, getData, getJson, type MarketSummary, qs, query } from '../api.ts'
import { addDecimal, amount } from '../format.ts'
import { useLoad } from '../hooks.ts'
import { Failure, Loading } from '../parts/status.tsx'
import { href } from '../router.ts'

const REFRESH_MS = 3_000
const DAY_MS = 86_400_000

/** Size traded in the hourly buckets opened in the last 24 hours (exact). */
function volume24h(candles: readonly Candle[]): string {
  return candles.reduce((total, c) => addDecimal(total, c.v), '0')
}

async function readMarkets() {
  const markets = await query('getMarkets', {})
  const listed = markets.filter((m) => m.lifecycle !== 'Delisted')
  const now = Date.now()
  const extras = await Promise.all(
    listed.map(async (m) => {
      const [summary, candles] = await Promise.all([
        getData<MarketSummary>(`/api/v1/markets/${encodeURIComponent(m.symbol)}/summary`),
        getJson<Candle[]>(`/api/v1/candles?${qs({ symbol: m.symbol, interval: '1h', from: now - DAY_MS + 1 })}`),
      ])
      return [m.market_id, { summary, volume: volume24h(candles) }] as const
    }),
  )
  return { markets, extras: new Map(extras) }
}

export function MarketsPage() {
  const loaded = useLoad(readMarkets, [], REFRESH_MS)
  if (loaded.data === undefined) return loaded.error ? <Failure error={loaded.error} /> : <Loading />
  const { markets, extras } = loaded.data
  return (
    <section>
      <h1>Markets</h1>
      {loaded.error && <Failure error={loaded.error} />}
      <div class="scroll">
        <table class="markets">
          <thead>
            <tr>
              <th>Market</th>
              <th>Lifecycle</th>
              <th class="num">Mark</th>
              <th class="num">Best bid</th>
              <th class="num">Best ask</th>
              <th class="num">Size traded 24 h</th>
              <th class="num">Notional today (UTC)</th>
              <th class="num">Open interest</th>
              <th class="num">OI notional</th>
            </tr>
          </thead>
          <tbody>
            {markets.map((m) => {
              const extra = extras.get(m.market_id)
              return (
                <tr key={m.market_id} data-symbol={m.symbol}>
                  <td>
                    <a href={href.market(m.symbol)}>{m.symbol}</a>
                    {m.routing === 'external_peg' && <span class="tag">external peg</span>}
                  </td>
                  <td>
                    <span class={`lifecycle ${m.lifecycle.toLowerCase()}`}>{m.lifecycle}</span>
                    {m.emergency_halt && <span class="tag warn">halted{m.halt_reason ? `: ${m.halt_reason}` : ''}</span>}
                  </td>
                  <td class="num mark">{amount(m.mark_price)}</td>
                  <td class="num">{amount(extra?.summary.best_bid)}</td>
                  <td class="num">{amount(extra?.summary.best_ask)}</td>
                  <td class="num volume">{extra ? amount(extra.volume) : '—'}</td>
                  <td class="num">{amount(extra?.summary.day_ntl_volume)}</td>
                  <td class="num">{amount(m.open_interest)}</td>
                  <td class="num">{amount(m.open_interest_notional)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </section>
  )
}
