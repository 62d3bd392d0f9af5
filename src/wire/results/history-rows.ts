// Row schemas of the history REST reads (docs/history-api.md): fills, order lifecycle rows, fund and
// bridge flows, positions, referral and rebate events, account events (EventView with its typed
// body), transactions, account stats, the leaderboard and search hits. Built by
// src/indexer/tables/*.ts and src/indexer/read/search.ts; the OpenAPI document of the node
// (src/api/openapi.ts) answers with them, and test/e2e/openapi.test.ts checks real replies.
import { Type } from '@sinclair/typebox'
import { EventBodySchema } from '../events/index.ts'
import { DecimalString, SideSchema, U32, U53 } from '../schema-types.ts'
import { Address, Hash32, Nullable, SignedDecimalString, Strict } from './common.ts'
import { PositionActionSchema } from './history.ts'
import { EnvelopeViewSchema, EventViewSchema } from './shared-block.ts'

const MarketSymbol = Nullable(
  Type.String({ minLength: 1, description: 'the market symbol' }),
  'symbol of market_id, resolved at read time; null for a market the node does not know',
)
const Height = U53('height of the block')
const Seq = U53('sequence of the event in its block')
const TimeMs = U53('block time, ms')

/** EventView with its body typed by sub_kind (docs/events.md). */
export const HistoryEventViewSchema = Strict(
  { ...EventViewSchema.properties, body: EventBodySchema },
  'an event of a block (EventView) with its typed body',
)

/** GET /api/v1/tx/{hash}: the EnvelopeView, its block time and its events. */
export const TxViewSchema = Strict(
  {
    ...EnvelopeViewSchema.properties,
    timestamp_ms: Nullable(TimeMs, 'block time; null when the block is not indexed'),
    events: Type.Array(HistoryEventViewSchema, { description: 'the events the envelope caused, in order' }),
  },
  'a transaction (EnvelopeView with its block time and events)',
)

/** A fill row of /api/v1/fills (docs/history-api.md#fills-and-orders). */
export const FillRecordSchema = Strict(
  {
    height: Height,
    seq: Seq,
    is_taker: Type.Boolean({ description: 'the participant was the taker' }),
    timestamp_ms: TimeMs,
    market_id: U32('the market'),
    order_id: U53("the participant's order"),
    account: Address('the participant'),
    counterparty: Address('the other participant'),
    price: DecimalString('fill price (px precision)'),
    qty: DecimalString('fill size (sz precision)'),
    notional: DecimalString('price x qty (SCALE_6)'),
    fee: SignedDecimalString("the participant's fee (SCALE_6)"),
    symbol: MarketSymbol,
    realized_pnl: SignedDecimalString("the participant's realized PnL of this fill (SCALE_6)"),
    realized_pnl_pct: SignedDecimalString('realized PnL / cost basis of the closed part x 100, 4 decimals; "0" for an opening fill'),
    position_action: Type.Optional(PositionActionSchema),
    trigger_id: Type.Optional(U53("the trigger order the participant's order was promoted from")),
  },
  'a fill of an account (one per participant)',
)

/** OrderHistoryRecord: a row of /api/v1/orders. */
export const OrderHistoryRecordSchema = Strict(
  {
    height: Height,
    seq: Seq,
    timestamp_ms: TimeMs,
    order_id: U53('the order'),
    owner: Address('the owner'),
    market_id: U32('the market'),
    event_type: Type.Union([Type.Literal('Accepted'), Type.Literal('Resting'), Type.Literal('Done'), Type.Literal('Expired')]),
    side: Nullable(SideSchema, 'on Accepted; null otherwise'),
    price: Nullable(DecimalString('limit price (px precision)'), 'on Accepted; null otherwise'),
    qty: Nullable(DecimalString('size (sz precision)'), 'on Accepted; null otherwise'),
    remaining: Nullable(DecimalString('size left (sz precision)'), 'on Done and Expired; null otherwise'),
    reason: Nullable(Type.String({ minLength: 1 }), 'the close reason on Done and Expired; null otherwise'),
    symbol: MarketSymbol,
    client_order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "the caller's id; absent without one" })),
    trigger_id: Type.Optional(U53('the trigger order it was promoted from; absent otherwise')),
  },
  'an order lifecycle row (OrderHistoryRecord)',
)

/** A row of /api/v1/fund-flows. */
export const FundFlowSchema = Strict(
  {
    height: Height,
    seq: Seq,
    timestamp_ms: TimeMs,
    account: Address('the account'),
    flow_type: Type.String({ minLength: 1, description: 'the BalanceChanged reason: Deposit, WithdrawRequested, TransferOut, …' }),
    amount: SignedDecimalString('signed amount, credits > 0 (SCALE_6)'),
    balance_after: Nullable(SignedDecimalString('balance after the movement (SCALE_6)'), 'null when the event did not report it'),
    market_id: Nullable(U32('the market'), 'null for movements without a market'),
    symbol: MarketSymbol,
    tx_hash: Nullable(Hash32('the transaction'), 'null for a movement the block raised itself'),
  },
  'a balance movement outside trading',
)

/** A row of /api/v1/bridge-flows. */
export const BridgeFlowSchema = Strict(
  {
    height: Height,
    seq: Seq,
    timestamp_ms: TimeMs,
    account: Address('the account'),
    direction: Type.Union([Type.Literal('deposit'), Type.Literal('withdraw')]),
    status: Type.Union(
      ['credited', 'requested', 'claimed', 'cancelled', 'settled', 'refunded'].map((s) => Type.Literal(s)),
      { description: 'credited (deposit), or the withdrawal step' },
    ),
    amount: DecimalString('amount (SCALE_6)'),
    reference: Type.String({ minLength: 1, description: 'the deposit id or the withdrawal id' }),
    counterparty: Nullable(Type.String(), 'the source chain or the destination; null when none'),
    external_tx: Nullable(Type.String(), 'the transaction on the other chain; null when none'),
    reason: Nullable(Type.String(), 'why a withdrawal was cancelled or refunded; null otherwise'),
    tx_hash: Nullable(Hash32('the transaction'), 'null for a step the block raised itself'),
  },
  'a bridge deposit or withdrawal step',
)

/** A row of /api/v1/positions: one per (account, market, block). */
export const PositionChangeSchema = Strict(
  {
    height: Height,
    first_seq: Seq,
    last_seq: Seq,
    timestamp_ms: TimeMs,
    account: Address('the account'),
    market_id: U32('the market'),
    symbol: MarketSymbol,
    size_before: SignedDecimalString('signed size before the block (sz precision)'),
    size_after: SignedDecimalString('signed size after the block (sz precision)'),
    realized_pnl: SignedDecimalString('PnL realized in the block (SCALE_6)'),
    fills: U53('fills in the block'),
    volume: DecimalString('traded notional in the block (SCALE_6)'),
    cause: Type.String({
      minLength: 1,
      description: 'trade, liquidation, liquidation_takeover, delist_settlement; comma-joined when several',
    }),
    position_action: Type.Optional(PositionActionSchema),
  },
  'a change of a position',
)

const Role = Type.Union([Type.Literal('inviter'), Type.Literal('invitee')])

/** A row of /api/v1/referral/events. */
export const ReferralEventSchema = Strict(
  {
    height: Height,
    seq: Seq,
    timestamp_ms: TimeMs,
    account: Address('the account the row is listed under'),
    role: Role,
    event_type: Type.String({ minLength: 1, description: 'the event, e.g. InviterSet' }),
    inviter: Address('the inviter'),
    invitee: Address('the invitee'),
  },
  'a side of a referral binding',
)

/** A row of /api/v1/rebate/events. */
export const RebateEventSchema = Strict(
  {
    height: Height,
    seq: Seq,
    timestamp_ms: TimeMs,
    account: Address('the account the row is listed under'),
    role: Role,
    market_id: U32('the market'),
    symbol: MarketSymbol,
    inviter: Address('the inviter'),
    invitee: Address('the invitee'),
    fee: DecimalString("the invitee's fee the rebate was cut from (SCALE_6)"),
    amount: DecimalString("this side's share (SCALE_6)"),
  },
  "a side's share of a RebatePaid",
)

const Window = Strict({ volume: DecimalString('volume (SCALE_6)'), realized_pnl: SignedDecimalString('realized PnL (SCALE_6)') })

/** /api/v1/account-stats data. */
export const AccountStatsSchema = Strict(
  {
    account: Address('the account'),
    volume: DecimalString('traded notional (SCALE_6)'),
    fills: U53('fills'),
    taker_fills: U53('fills as taker'),
    maker_fills: U53('fills as maker'),
    fees: SignedDecimalString('fees paid (SCALE_6)'),
    realized_pnl: SignedDecimalString('realized PnL (SCALE_6)'),
    winning_closes: U53('closes with a gain'),
    losing_closes: U53('closes with a loss'),
    first_fill_ms: Nullable(TimeMs, 'null before the first fill'),
    last_fill_ms: Nullable(TimeMs, 'null before the first fill'),
    as_of_height: Nullable(Height, 'last block folded in; null before the first fill'),
    last_7d: Window,
    last_30d: Window,
  },
  'trading statistics of an account',
)

/** GET /api/v1/leaderboard. */
export const LeaderboardSchema = Strict(
  {
    data: Type.Array(
      Strict({
        rank: Type.Integer({ minimum: 1 }),
        account: Address('the account'),
        value: SignedDecimalString('the metric (SCALE_6)'),
        volume: DecimalString('volume (SCALE_6)'),
        realized_pnl: SignedDecimalString('realized PnL (SCALE_6)'),
        fills: U53('fills'),
      }),
    ),
    meta: Strict({
      as_of_timestamp_ms: Nullable(TimeMs, 'block time of the snapshot; null before the first'),
      as_of_height: Nullable(Height, 'height of the snapshot; null before the first'),
      source: Type.Literal('snapshot'),
      metric: Type.String({ minLength: 1 }),
      period: Type.String({ minLength: 1 }),
    }),
  },
  'the leaderboard and its snapshot',
)

/** A hit of /api/v1/search. */
export const SearchHitSchema = Type.Union(
  [
    Strict({
      type: Type.Literal('block'),
      height: Height,
      digest: Hash32('the block hash'),
      timestamp_ms: TimeMs,
      envelope_count: U53('envelopes'),
      event_count: U53('events'),
    }),
    Strict({
      type: Type.Literal('tx'),
      tx_hash: Hash32('the transaction'),
      height: Height,
      envelope_idx: U53('index in the block'),
      signer: Address('the signer'),
      action_kind: Type.String({ minLength: 1 }),
      status: EnvelopeViewSchema.properties.status,
    }),
    Strict({
      type: Type.Literal('account'),
      address: Address('the account'),
      fills: U53('fills'),
      volume: DecimalString('traded notional (SCALE_6)'),
      last_fill_ms: Nullable(TimeMs, 'null without fills'),
      last_signed_height: Nullable(Height, 'null when it signed nothing'),
      last_event_height: Nullable(Height, 'null when no event named it'),
    }),
  ],
  { description: 'a block, a transaction or an account' },
)
