// The block store's wire views (docs/history-api.md#blocks-envelopes-transactions): BlockHeader,
// EnvelopeView and EventView, shared by the chain, block and history reads (getBlock, getBlocks,
// getTx, getBlockEvents, the audit log).
import { CloneType, Type } from '@sinclair/typebox'
import { ACTION_KINDS } from '../actions.ts'
import { U32, U53 } from '../schema-types.ts'
import { Address, Hash32, Nullable, Strict } from './common.ts'

/** The signed action of an envelope: one key, the action kind, over that kind's payload as signed. */
export const EnvelopeActionSchema = Type.Union(
  ACTION_KINDS.map((k) => Strict({ [k.name]: CloneType(k.schema, { description: `the ${k.name} payload: ${k.description}` }) })),
  { description: 'the action as signed: one top-level key, the action kind, over its payload' },
)

const EnvelopeFields = {
  height: U53('height of the block that holds the envelope'),
  envelope_idx: U53('index of the envelope in its block'),
  tx_hash: Hash32('the transaction hash'),
  signer: Address('the address that signed (an account or an agent)'),
  nonce: U53("the signer's nonce the envelope used"),
  status: Type.Union([Type.Literal('accepted'), Type.Literal('kept-reject')], {
    description:
      'accepted, or kept-reject: in the block and its nonce used, but the action rejected (docs/protocol.md#refusals-and-kept-rejects)',
  }),
  action_kind: Type.String({ minLength: 1, description: 'top-level key of `action`, e.g. PlaceOrder, CancelOrder' }),
  market_id: Nullable(U32('the market'), 'the market the action addressed; null for actions without one'),
  symbol: Nullable(
    Type.String({ minLength: 1, description: 'the market symbol' }),
    'symbol of market_id, resolved at read time; null without a market',
  ),
  action: EnvelopeActionSchema,
  reason: Nullable(
    Strict(
      {
        code: Type.String({ minLength: 1, description: 'the reject reason (docs/errors.md#reject-reasons), e.g. InsufficientMargin' }),
        message: Type.String({ description: 'what was wrong, for people' }),
      },
      'why the action was rejected',
    ),
    'reject detail when status is kept-reject; null when accepted',
  ),
}

/** EnvelopeView: one signed transaction of a block with its status and reason. */
export const EnvelopeViewSchema = Strict(EnvelopeFields, 'a signed transaction of a block (EnvelopeView)')

export const EventKindSchema = Type.Union(
  [
    Type.Literal('Exec'),
    Type.Literal('Core'),
    Type.Literal('Oco'),
    Type.Literal('Liquidation'),
    Type.Literal('Trigger'),
    Type.Literal('Bridge'),
    Type.Literal('Ops'),
  ],
  { description: 'event family (docs/events.md)' },
)

/** EventView: one event of a block. */
export const EventViewSchema = Strict(
  {
    height: U53('height of the block that holds the event'),
    seq: U53('sequence of the event in its block'),
    envelope_idx: U53(
      "index of the envelope that caused the event; for an event of the block itself (expiries and the dead man's switch before the envelopes; trigger fires, quote staleness, liquidations and bad debt after them) the block's envelope_count, an index no envelope has",
    ),
    kind: EventKindSchema,
    sub_kind: Type.String({ minLength: 1, description: 'the event, e.g. Filled, OrderAccepted, OrderDone, Rejected' }),
    market_id: Nullable(U32('the market'), 'the market of the event; null for events without one'),
    symbol: Nullable(
      Type.String({ minLength: 1, description: 'the market symbol' }),
      'symbol of market_id, resolved at read time; null without a market',
    ),
    account: Nullable(Address('the account'), 'the account the event is about (best effort; the taker of a fill); null when none'),
    body: Type.Record(Type.String(), Type.Unknown(), {
      description:
        "the chain event with its fields by sub_kind; prices, sizes and amounts are decimal strings at the market's precision (a field named x_ticks or x_lots in the engine is x here)",
    }),
  },
  'an event of a block (EventView)',
)

/** BlockHeader as the header-only reads return it: `envelopes` is always empty. */
const BlockHeaderFields = {
  parent: Hash32('digest of the parent block (for block 1, the genesis digest)'),
  height: U53('block height'),
  timestamp_ms: U53('block time, ms since the Unix epoch'),
  digest: Hash32('the block hash'),
  envelope_count: U53('envelopes in the block'),
  event_count: U53('events in the block'),
  state_root: Hash32('root of the chain state after the block'),
}

export const BlockHeaderSchema = Strict(
  {
    ...BlockHeaderFields,
    envelopes: Type.Tuple([], { description: 'always empty in header lists' }),
  },
  'a block header (BlockHeader)',
)

/** A block with its envelopes (getBlock). */
export const BlockSchema = Strict(
  {
    ...BlockHeaderFields,
    envelopes: Type.Array(EnvelopeViewSchema, { description: 'the envelopes of the block in order' }),
  },
  'a block header with its envelopes',
)
