// Result schema of the margin reads (margin-methods.ts): the positions LiquidatePosition would
// accept now (docs/rpc.md#getliquidatablepositions).
import { Type } from '@sinclair/typebox'
import { MarginModeSchema } from '../actions/margin.ts'
import { DecimalString, U32 } from '../schema-types.ts'
import { Address, Nullable, SignedDecimalString, Strict } from './common.ts'

export const LiquidatablePositionsResult = Type.Array(
  Strict(
    {
      address: Address('the account holding the position'),
      market_id: U32('the market'),
      symbol: Type.String({ minLength: 1, description: 'the market symbol' }),
      margin_mode: MarginModeSchema,
      size: SignedDecimalString('signed size (sz precision): long > 0, short < 0'),
      mark_price: DecimalString("the market's mark price (px precision)"),
      margin_used: DecimalString('Cross: initial margin at the mark; Isolated: the isolated margin (SCALE_6)'),
      isolated_margin: DecimalString('margin moved into an Isolated position (SCALE_6); 0 for Cross'),
      unrealized_pnl: SignedDecimalString('unrealized PnL at the mark (SCALE_6)'),
      maintenance: DecimalString("the position's own maintenance requirement (SCALE_6)"),
      equity: SignedDecimalString(
        "equity that decided (SCALE_6): the cross part's for a Cross position, the position's own for an Isolated one",
      ),
      maintenance_required: DecimalString("maintenance that decided (SCALE_6): the cross part's, or the Isolated position's own"),
      account_value: SignedDecimalString("the account's balance + isolated margins + uPnL (SCALE_6)"),
      liquidation_price: Nullable(
        DecimalString('price (px precision)'),
        'the mark at which the position reaches its maintenance requirement; null when no mark does',
      ),
    },
    'a liquidatable position',
  ),
  { description: 'liquidatable positions by market id, then in the order their accounts opened them' },
)
