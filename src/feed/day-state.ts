// What the hot feed keeps that the chain does not: per market the 24 h counters of
// docs/websocket.md#hot-read-rest (volumes since UTC midnight, the previous day's closing mark) and
// the open candle of every interval. The node saves it beside its data (api/ws/day-state-file.ts)
// so that a restart goes on from the saved height, adding the fills of the blocks after it, instead
// of starting the day at 0.
import { type Static, Type } from '@sinclair/typebox'
import { CANDLE_INTERVALS } from '../wire/candles.ts'
import { FEED_MARKETS_MAX } from './types.ts'

const Int = Type.Integer()

export const LiveBarSchema = Type.Object(
  { t: Int, T: Int, o: Int, h: Int, l: Int, c: Int, v: Int, n: Int },
  { additionalProperties: false },
)

export const MarketDayStateSchema = Type.Object(
  {
    market_id: Int,
    /** Start of the UTC day the counters cover. */
    day_start_ms: Int,
    /** SCALE_6 notional traded since day_start_ms, as a decimal integer string. */
    day_notional: Type.String({ pattern: '^[0-9]+$', maxLength: 40 }),
    day_base_lots: Int,
    prev_day_price: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
    /** The latest bar of each interval (prices in ticks, volume in lots). */
    bars: Type.Array(Type.Tuple([Type.Union(CANDLE_INTERVALS.map((i) => Type.Literal(i))), LiveBarSchema]), {
      maxItems: CANDLE_INTERVALS.length,
    }),
  },
  { additionalProperties: false },
)

export const FeedDayStateSchema = Type.Object(
  {
    /** The block the state is as of. */
    height: Int,
    markets: Type.Array(MarketDayStateSchema, { maxItems: FEED_MARKETS_MAX }),
  },
  { additionalProperties: false },
)

export type FeedDayState = Static<typeof FeedDayStateSchema>
export type MarketDayState = Static<typeof MarketDayStateSchema>
