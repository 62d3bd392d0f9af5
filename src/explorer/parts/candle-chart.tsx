// The candle chart of one interval (lightweight-charts): the latest candles from GET
// /api/v1/candles, read again after every (re)subscription, and the open bar from the
// candles.{symbol}.{interval} pushes. Below it, the newest candles as a table, the same figures
// as numbers.
import { CandlestickSeries, createChart, HistogramSeries, type IChartApi, type ISeriesApi, type UTCTimestamp } from 'lightweight-charts'
import { useEffect, useRef, useState } from 'preact/hooks'
import type { PerpdWsClient } from '../../client/ws-client.ts'
import { type Candle, getJson, type MarketDetail, qs } from '../api.ts'
import { time } from '../format.ts'

/** The candle intervals of the node (docs/history-api.md#candles). */
export const INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '8h', '12h', '1d', '3d', '1w', '1M'] as const
export type Interval = (typeof INTERVALS)[number]

/** Candles the chart loads: the newest this many. */
const LOAD_LIMIT = 500
/** Candles the table under the chart lists. */
const TABLE_ROWS = 8

const UP = '#15803d'
const DOWN = '#b91c1c'

interface Series {
  readonly chart: IChartApi
  readonly candles: ISeriesApi<'Candlestick'>
  readonly volume: ISeriesApi<'Histogram'>
}

const bar = (c: Candle) => ({
  time: (c.t / 1000) as UTCTimestamp,
  open: Number(c.o),
  high: Number(c.h),
  low: Number(c.l),
  close: Number(c.c),
})
const volumeBar = (c: Candle) => ({
  time: (c.t / 1000) as UTCTimestamp,
  value: Number(c.v),
  color: Number(c.c) >= Number(c.o) ? `${UP}66` : `${DOWN}66`,
})

export function CandleChart(props: { ws: PerpdWsClient; topic: string; market: MarketDetail; interval: Interval }) {
  const { ws, topic, market, interval } = props
  const box = useRef<HTMLDivElement>(null)
  const series = useRef<Series | undefined>(undefined)
  /** The candles shown, by open time. */
  const shown = useRef(new Map<number, Candle>())
  const [candles, setCandles] = useState<Candle[]>()

  useEffect(() => {
    const chart = createChart(box.current!, {
      autoSize: true,
      layout: { background: { color: 'transparent' }, textColor: '#475569', attributionLogo: false },
      grid: { vertLines: { color: '#eef2f7' }, horzLines: { color: '#eef2f7' } },
      timeScale: { timeVisible: true, secondsVisible: false, maxBarSpacing: 24 },
      rightPriceScale: { borderVisible: false },
    })
    const minMove = 10 ** -market.price_decimals
    const candlesSeries = chart.addSeries(CandlestickSeries, {
      upColor: UP,
      downColor: DOWN,
      wickUpColor: UP,
      wickDownColor: DOWN,
      borderVisible: false,
      priceFormat: { type: 'price', precision: market.price_decimals, minMove },
    })
    const volume = chart.addSeries(HistogramSeries, {
      priceScaleId: 'volume',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    })
    chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } })
    candlesSeries.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.25 } })
    series.current = { chart, candles: candlesSeries, volume }
    return () => {
      series.current = undefined
      chart.remove()
    }
  }, [market.price_decimals])

  useEffect(() => {
    const publish = () => setCandles([...shown.current.values()].sort((a, b) => a.t - b.t))
    /** Pushed bars that arrive while a read is in flight, applied over its answer. */
    let held: Candle[] | undefined
    const apply = (c: Candle) => {
      shown.current.set(c.t, c)
      series.current?.candles.update(bar(c))
      series.current?.volume.update(volumeBar(c))
    }
    const offPush = ws.on(topic, (frame) => {
      const c = (frame as unknown as { data: Candle }).data
      if (held !== undefined) held.push(c)
      // A bar older than the last one shown is already in (the chart only takes the last bar or a new one).
      else if (c.t >= Math.max(0, ...shown.current.keys())) {
        apply(c)
        publish()
      }
    })
    const offResync = ws.onResync(async () => {
      held = []
      try {
        const rows = await getJson<Candle[]>(`/api/v1/candles?${qs({ symbol: market.symbol, interval, limit: LOAD_LIMIT })}`)
        shown.current = new Map(rows.map((c) => [c.t, c]))
        series.current?.candles.setData(rows.map(bar))
        series.current?.volume.setData(rows.map(volumeBar))
        series.current?.chart.timeScale().fitContent()
        const last = rows.at(-1)?.t ?? 0
        for (const c of held) if (c.t >= last && (shown.current.get(c.t)?.n ?? -1) <= c.n) apply(c)
        publish()
      } catch (err) {
        // The pushes go on; the next resync reads again.
        console.warn(`candles: ${(err as Error).message}`)
      } finally {
        held = undefined
      }
    })
    return () => {
      offPush()
      offResync()
    }
  }, [ws, topic, market.symbol, interval])

  const newest = candles === undefined ? [] : candles.slice(-TABLE_ROWS).reverse()
  return (
    <div class="candles" data-interval={interval}>
      <div
        class="chart"
        ref={box}
        role="img"
        aria-label={`${market.symbol} ${interval} candles`}
        data-count={candles?.length ?? ''}
        data-first-t={candles?.[0]?.t ?? ''}
        data-last-t={candles?.at(-1)?.t ?? ''}
      />
      {candles !== undefined && candles.length === 0 && <p class="empty">No trades in this interval's buckets yet.</p>}
      {newest.length > 0 && (
        <div class="scroll">
          <table class="candle-table">
            <thead>
              <tr>
                <th>Open time (UTC)</th>
                <th class="num">Open</th>
                <th class="num">High</th>
                <th class="num">Low</th>
                <th class="num">Close</th>
                <th class="num">Volume</th>
                <th class="num">Fills</th>
              </tr>
            </thead>
            <tbody>
              {newest.map((c) => (
                <tr key={c.t} data-t={c.t}>
                  <td>{time(c.t)}</td>
                  <td class="num">{c.o}</td>
                  <td class="num">{c.h}</td>
                  <td class="num">{c.l}</td>
                  <td class="num">{c.c}</td>
                  <td class="num">{c.v}</td>
                  <td class="num">{c.n}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p class="note">
        {candles?.length ?? 0} {candles?.length === 1 ? 'candle' : 'candles'} (at most the newest {LOAD_LIMIT}) from /api/v1/candles; the
        open bar live
      </p>
    </div>
  )
}
