// A market's screen: its stats, the live order book and trades, and the candle chart. The book,
// the trades and the open candle come over the WebSocket (topics book.{symbol}.{depth},
// trades.{symbol}, candles.{symbol}.{interval}); after every (re)subscription, a gap or a
// reconnect, the trades and candles are read again over HTTP (PerpdWsClient's resync hooks).
import { useState } from 'preact/hooks'
import { type MarketDetail, query } from '../api.ts'
import { useLoad, useWsClient } from '../hooks.ts'
import { CandleChart, INTERVALS, type Interval } from '../parts/candle-chart.tsx'
import { MarketStats } from '../parts/market-stats.tsx'
import { OrderBook } from '../parts/order-book.tsx'
import { Failure, Loading } from '../parts/status.tsx'
import { TradesList } from '../parts/trades-list.tsx'

/** Levels per side the book shows. */
const BOOK_DEPTH = 15

export function MarketPage({ symbol }: { symbol: string }) {
  const market = useLoad(() => query('getMarket', { symbol }), [symbol])
  if (market.data === undefined) return market.error ? <Failure error={market.error} /> : <Loading />
  return <LiveMarket market={market.data} />
}

function LiveMarket({ market }: { market: MarketDetail }) {
  const [interval, setInterval] = useState<Interval>('1m')
  const symbol = market.symbol
  const topics = {
    book: `book.${symbol}.${BOOK_DEPTH}`,
    trades: `trades.${symbol}`,
    candles: `candles.${symbol}.${interval}`,
  }
  const ws = useWsClient([topics.book, topics.trades, topics.candles])
  return (
    <section class="market">
      <h1>
        {symbol} <span class={`lifecycle ${market.lifecycle.toLowerCase()}`}>{market.lifecycle}</span>
      </h1>
      <MarketStats market={market} />
      <div class="market-grid">
        <div class="panel chart-panel">
          <fieldset class="intervals" aria-label="Candle interval">
            {INTERVALS.map((i) => (
              <button
                key={i}
                type="button"
                class={i === interval ? 'active' : ''}
                aria-pressed={i === interval}
                onClick={() => setInterval(i)}
              >
                {i}
              </button>
            ))}
          </fieldset>
          {ws && <CandleChart key={`${symbol} ${interval}`} ws={ws} topic={topics.candles} market={market} interval={interval} />}
        </div>
        <div class="panel">
          <h2>Order book</h2>
          {ws ? <OrderBook ws={ws} topic={topics.book} /> : <Loading />}
        </div>
        <div class="panel">
          <h2>Trades</h2>
          <div class="scroll">{ws ? <TradesList ws={ws} topic={topics.trades} symbol={symbol} /> : <Loading />}</div>
        </div>
      </div>
    </section>
  )
}
