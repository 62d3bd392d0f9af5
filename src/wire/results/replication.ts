// What a node exports to a new node of its replicated chain (docs/replication.md#starting-from-a-peers-snapshot):
// a page of its stored block rows as the block store keeps them (header, envelopes with market,
// status and reason, events), GET /api/v1/replication/blocks. One schema for the route's
// declaration (so OpenAPI documents it) and for the new node's check of what it received.
import { Type } from '@sinclair/typebox'
import { U32, U53 } from '../schema-types.ts'
import { Address, Hash32, Nullable, Strict } from './common.ts'

/** Blocks one page holds at most. */
export const EXPORT_PAGE_BLOCKS_MAX = 500
/** Envelopes and events one page holds at most (a page ends after the block that reaches it; one block at least). */
export const EXPORT_PAGE_ROWS_MAX = 50_000

export const ExportedHeaderSchema = Strict({
  height: U53('the block height'),
  parent: Hash32('the digest of the block before'),
  digest: Hash32('the block digest'),
  timestampMs: U53('the block time (ms)'),
  envelopeCount: U53('envelopes in the block'),
  eventCount: U53('events in the block'),
  stateRoot: Hash32('the state root after the block'),
})

export const ExportedEnvelopeSchema = Strict({
  height: U53('the block height'),
  envelopeIdx: U53('its place in the block'),
  txHash: Hash32('the transaction hash'),
  signer: Address('the signer'),
  nonce: U53('the nonce'),
  actionKind: Type.String({ minLength: 1, maxLength: 64 }),
  marketId: Nullable(U32('the market'), 'the market the action is about; null for none'),
  actionJson: Type.String({ description: 'the action object as signed, JSON text' }),
  signatureJson: Type.String({ description: 'the signature, JSON text' }),
  status: Type.Union([Type.Literal('accepted'), Type.Literal('kept-reject')]),
  reasonJson: Nullable(Type.String(), '{code, message} JSON of a kept-reject; null when accepted'),
})

export const ExportedEventSchema = Strict({
  height: U53('the block height'),
  seq: U53('its place among the block events'),
  envelopeIdx: U53('the envelope that caused it, or the envelope count for an event of the block itself'),
  kind: Type.String(),
  subKind: Type.String(),
  marketId: Nullable(U32('the market'), 'the market; null for none'),
  account: Nullable(Type.String(), 'the account; null for none'),
  bodyJson: Type.String({ description: 'the event body, JSON text' }),
})

export const ExportedBlockSchema = Strict({
  header: ExportedHeaderSchema,
  envelopes: Type.Array(ExportedEnvelopeSchema),
  events: Type.Array(ExportedEventSchema),
})

/** GET /api/v1/replication/blocks: consecutive stored blocks from `from`, and where the next page starts. */
export const ExportedBlocksPage = Strict(
  {
    blocks: Type.Array(ExportedBlockSchema),
    next_from: Nullable(U53('a height'), 'where the next page starts; null once this one reached `to` (or the stored tip)'),
  },
  'stored block rows of a height range',
)

/** The headers of GET /api/v1/replication/snapshot's reply: the snapshot's height and state root. */
export const SNAPSHOT_HEIGHT_HEADER = 'x-perpd-snapshot-height'
export const SNAPSHOT_ROOT_HEADER = 'x-perpd-snapshot-state-root'
