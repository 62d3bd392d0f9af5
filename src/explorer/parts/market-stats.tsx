// A market's figures: the hot summary (top of book, open interest, today's volume), traders'
// exposure (getMarketStats) and the settings of getMarket; refreshed every few seconds.
import { getData, type MarketDetail, type MarketSummary, query } from '../api.ts'
import { amount, signClass } from '../format.ts'
import { useLoad } from '../hooks.ts'
import { Failure } from './status.tsx'

const REFRESH_MS = 2_000

export function MarketStats({ market }: { market: MarketDetail }) {
  const symbol = market.symbol
  const live = useLoad(
    async () => {
      const [summary, stats] = await Promise.all([
        getData<MarketSummary>(`/api/v1/markets/${encodeURIComponent(symbol)}/summary`),
        query('getMarketStats', { symbol }),
      ])
      return { summary, stats }
    },
    [symbol],
    REFRESH_MS,
  )
  const s = live.data?.summary
  const x = live.data?.stats
  const figures: [string, string, string?][] = [
    ['Mark', amount(s?.mark_price ?? market.mark_price)],
    ['Best bid', amount(s?.best_bid)],
    ['Best ask', amount(s?.best_ask)],
    ['Spread', amount(s?.spread)],
    ['Open interest', amount(s?.open_interest)],
    ['OI notional', amount(s?.open_interest_notional)],
    ['Notional today (UTC)', amount(s?.day_ntl_volume)],
    ['Size today (UTC)', amount(s?.day_base_volume)],
    ['Previous day close', amount(s?.prev_day_price)],
    ['Open orders', s ? String(s.open_orders) : '—'],
    ['Longs / shorts', x ? `${amount(x.long_size)} / ${amount(x.short_size)}` : '—'],
    ['Net size', amount(x?.net_size), signClass(x?.net_size)],
    ['Max leverage', `${market.max_leverage}×`],
    ['Fees maker / taker', `${market.maker_fee_bps} / ${market.taker_fee_bps} bps`],
    ['Routing', market.routing === 'external_peg' ? 'external peg' : 'native book'],
  ]
  return (
    <>
      {live.error && <Failure error={live.error} />}
      <dl class="stats">
        {figures.map(([label, value, cls]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd class={cls}>{value}</dd>
          </div>
        ))}
        {market.emergency_halt && (
          <div>
            <dt>Halted</dt>
            <dd class="neg">{market.halt_reason ?? 'yes'}</dd>
          </div>
        )}
      </dl>
    </>
  )
}
