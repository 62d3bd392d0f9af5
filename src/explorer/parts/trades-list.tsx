// The market's latest trades: read over HTTP after every (re)subscription, then kept current by the
// trades.{symbol} pushes (a block's fills), newest first. Rows are keyed by (height, event seq), so
// a push and a re-read that overlap show each trade once.
import { useEffect, useState } from 'preact/hooks'
import type { PerpdWsClient } from '../../client/ws-client.ts'
import { getData, type RecentTrade } from '../api.ts'
import { amount, clock } from '../format.ts'
import { href } from '../router.ts'

/** Trades the list keeps. */
const KEEP = 40

type Trade = Pick<RecentTrade, 'block_height' | 'event_seq' | 'timestamp_ms' | 'price' | 'qty' | 'side'>

const keyOf = (t: Trade) => `${t.block_height}:${t.event_seq}`

/** The newest KEEP of two lists together, each trade once, newest first. */
function merge(a: readonly Trade[], b: readonly Trade[]): Trade[] {
  const byKey = new Map<string, Trade>()
  for (const t of [...a, ...b]) byKey.set(keyOf(t), t)
  return [...byKey.values()].sort((x, y) => y.block_height - x.block_height || y.event_seq - x.event_seq).slice(0, KEEP)
}

export function TradesList({ ws, topic, symbol }: { ws: PerpdWsClient; topic: string; symbol: string }) {
  const [trades, setTrades] = useState<Trade[]>()
  /** Trades that arrived by push (highlighted as they come in). */
  const [pushed, setPushed] = useState<ReadonlySet<string>>(new Set())
  useEffect(() => {
    const offPush = ws.on(topic, (frame) => {
      const rows = (frame as unknown as { trades: Trade[] }).trades
      setTrades((have) => merge(have ?? [], rows))
      setPushed((have) => new Set([...have, ...rows.map(keyOf)].slice(-KEEP)))
    })
    const offResync = ws.onResync(async () => {
      try {
        const rows = await getData<RecentTrade[]>(`/api/v1/market/trades/${encodeURIComponent(symbol)}?limit=${KEEP}`)
        setTrades((have) => merge(have ?? [], rows))
      } catch (err) {
        // The pushes go on; the next resync reads again.
        console.warn(`trades: ${(err as Error).message}`)
      }
    })
    return () => {
      offPush()
      offResync()
    }
  }, [ws, topic, symbol])
  if (trades === undefined) return <p class="loading">Loading…</p>
  if (trades.length === 0) return <p class="empty">No trades yet.</p>
  return (
    <table class="trades">
      <thead>
        <tr>
          <th>Time (UTC)</th>
          <th class="num">Price</th>
          <th class="num">Size</th>
          <th>Taker</th>
          <th class="num">Block</th>
        </tr>
      </thead>
      <tbody>
        {trades.map((t) => (
          <tr key={keyOf(t)} class={`${t.side === 'Bid' ? 'buy' : 'sell'}${pushed.has(keyOf(t)) ? ' pushed' : ''}`} data-key={keyOf(t)}>
            <td>{clock(t.timestamp_ms)}</td>
            <td class="num price">{amount(t.price)}</td>
            <td class="num qty">{amount(t.qty)}</td>
            <td>{t.side === 'Bid' ? 'buy' : 'sell'}</td>
            <td class="num">
              <a href={href.block(t.block_height)}>{t.block_height}</a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
