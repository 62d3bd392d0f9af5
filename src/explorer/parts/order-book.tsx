// The live order book: the snapshot of the book.{symbol}.{depth} topic, pushed on subscribe and
// whenever the visible levels change (docs/websocket.md).
import { useEffect, useState } from 'preact/hooks'
import { type PerpdWsClient, subtractDecimal } from '../../client/ws-client.ts'
import type { BookLevel, BookSnapshot } from '../api.ts'
import { amount } from '../format.ts'
import { Loading } from './status.tsx'

type BookPush = Pick<BookSnapshot, 'symbol' | 'height' | 'bids' | 'asks'>

export function OrderBook({ ws, topic }: { ws: PerpdWsClient; topic: string }) {
  const [book, setBook] = useState<BookPush>()
  useEffect(() => ws.on(topic, (frame) => setBook(frame as unknown as BookPush)), [ws, topic])
  if (book === undefined) return <Loading />
  // Depth bars: each level's cumulative size against the deepest side (display only).
  const deepest = Math.max(Number(book.bids.at(-1)?.cumulative_qty ?? 0), Number(book.asks.at(-1)?.cumulative_qty ?? 0), 1e-12)
  const row = (level: BookLevel, side: 'bid' | 'ask') => (
    <tr key={`${side}${level.price}`} class={side} style={{ '--depth': `${(Number(level.cumulative_qty) / deepest) * 100}%` }}>
      <td class="num price">{amount(level.price)}</td>
      <td class="num qty">{amount(level.qty)}</td>
      <td class="num">{amount(level.cumulative_qty)}</td>
    </tr>
  )
  const bestBid = book.bids[0]?.price
  const bestAsk = book.asks[0]?.price
  return (
    <table class="book" data-height={book.height}>
      <thead>
        <tr>
          <th class="num">Price</th>
          <th class="num">Size</th>
          <th class="num">Total</th>
        </tr>
      </thead>
      <tbody class="asks">
        {book.asks.length === 0 && (
          <tr>
            <td colSpan={3} class="empty">
              no asks
            </td>
          </tr>
        )}
        {[...book.asks].reverse().map((l) => row(l, 'ask'))}
      </tbody>
      <tbody class="spread">
        <tr>
          <td colSpan={3}>
            {bestBid !== undefined && bestAsk !== undefined ? `spread ${amount(subtractDecimal(bestAsk, bestBid))}` : 'one side empty'} ·
            height {book.height}
          </td>
        </tr>
      </tbody>
      <tbody class="bids">
        {book.bids.map((l) => row(l, 'bid'))}
        {book.bids.length === 0 && (
          <tr>
            <td colSpan={3} class="empty">
              no bids
            </td>
          </tr>
        )}
      </tbody>
    </table>
  )
}
