// Book B's exposure on our chain (GET /api/hedge/book-b-stats, and what the hedger hedges): every
// market getMarkets lists (Delisted ones are not listed) with its getMarketStats figures, read in
// one JSON-RPC batch; a market whose stats cannot be read carries detail_error instead.
import type { QueryData } from '../../client/query-methods.ts'
import type { RpcClient } from '../../client/rpc-client.ts'
import type { BookBStats } from './schemas.ts'

export async function readBookBStats(rpc: RpcClient, clock: () => number): Promise<BookBStats> {
  const markets = await rpc.query<QueryData<'getMarkets'>>('getMarkets')
  const replies =
    markets.data.length === 0
      ? []
      : await rpc.batch(markets.data.map((m) => ({ method: 'getMarketStats', params: { market_id: m.market_id } })))
  let withStats = 0
  const rows = markets.data.map((m, i) => {
    const reply = replies[i]
    const base = {
      symbol: m.symbol,
      market_id: m.market_id,
      lifecycle: m.lifecycle,
      emergency_halt: m.emergency_halt,
      mark_price: m.mark_price,
    }
    if (reply !== undefined && 'result' in reply) {
      const s = reply.result.data as QueryData<'getMarketStats'>
      withStats++
      return {
        ...base,
        stats: { long_size: s.long_size, short_size: s.short_size, net_size: s.net_size, block_height: s.block_height },
        detail_error: null,
      }
    }
    const error = reply === undefined ? 'no reply' : `${reply.error.message} (${reply.error.code})`
    return { ...base, stats: null, detail_error: error }
  })
  return {
    height: markets.height,
    fetched_at_ms: clock(),
    markets: rows,
    totals: { markets_with_stats: withStats, markets_failed: rows.length - withStats },
  }
}
