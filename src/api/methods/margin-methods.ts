// Read methods of the margin area: getLiquidatablePositions
// (docs/liquidation.md#7-reading-getliquidatablepositions; the market filter:
// docs/markets.md#symbol-resolution).
import { type Static, Type } from '@sinclair/typebox'
import { liquidatablePositions, marginUsed, unrealizedPnl, valueAccount } from '../../chain/index.ts'
import { formatDecimal } from '../../lib/decimal.ts'
import { LiquidatablePositionsResult } from '../../wire/results/margin.ts'
import { formatPrice } from '../views/market-view.ts'
import { marketFilter, marketRefFields } from './params.ts'
import { method } from './registry.ts'

/** Default and largest result count of getLiquidatablePositions. */
export const LIQUIDATABLE_LIMIT_DEFAULT = 100
export const LIQUIDATABLE_LIMIT_MAX = 1_000

const money = (v: bigint) => formatDecimal(v, 6)

export const marginMethods = [
  method({
    name: 'getLiquidatablePositions',
    paged: true,
    description:
      "Positions that LiquidatePosition would accept now, by market id: address, market, margin mode, size, mark price, margin used, the position's maintenance requirement, and the equity and maintenance that decided (the cross part's, or the Isolated position's own), account value and liquidation price. Optional market filter (market_id over symbol); limit default 100, max 1000.",
    params: Type.Object(
      {
        ...marketRefFields(),
        limit: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: LIQUIDATABLE_LIMIT_MAX,
            description: `at most this many positions (default ${LIQUIDATABLE_LIMIT_DEFAULT})`,
          }),
        ),
      },
      { additionalProperties: false },
    ),
    result: LiquidatablePositionsResult,
    example: { symbol: 'BTC-USD', limit: 10 },
    handler: (ctx, p) => {
      const state = ctx.node.state
      const market = marketFilter(state, p)
      const markets = market === undefined ? [...state.markets.values()] : [market]
      const limit = p.limit ?? LIQUIDATABLE_LIMIT_DEFAULT
      const scan = liquidatablePositions(state, markets, limit)
      const data: Static<typeof LiquidatablePositionsResult> = scan.entries.map((e) => {
        const m = e.market
        return {
          address: e.account.address,
          market_id: m.marketId,
          symbol: m.symbol,
          margin_mode: e.position.marginMode,
          size: formatDecimal(BigInt(e.position.sizeLots), m.sizeDecimals),
          mark_price: formatPrice(m, m.markTicks),
          margin_used: money(marginUsed(m, e.position)),
          isolated_margin: money(e.position.isolatedMargin),
          unrealized_pnl: money(unrealizedPnl(m, e.position)),
          maintenance: money(e.maintenance),
          equity: money(e.health.equity),
          maintenance_required: money(e.health.maintenance),
          account_value: money(valueAccount(state, e.account).accountValue),
          liquidation_price: e.liquidationPriceTicks === null ? null : formatDecimal(e.liquidationPriceTicks, m.priceDecimals),
        }
      })
      return { data, page: { offset: 0, limit, total: null, next_cursor: null, has_more: scan.truncated } }
    },
  }),
]
