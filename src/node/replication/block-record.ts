// The records of a chain's stream (docs/replication.md#records): one canonical msgpack array per
// record, positional so that the bytes of a block are the same on every leader that could produce
// it. Record 1 is the genesis; every other record is one committed block: its header, its envelopes
// as signed with the status the leader gave each, its state root and digest. Events are not
// carried: a follower recomputes them by applying the block, and the digest commits to their count.
import { type Static, Type } from '@sinclair/typebox'
import { Unpackr } from 'msgpackr'
import { encodeCanonical } from '../../lib/msgpack.ts'
import type { Genesis } from '../../wire/genesis.ts'
import { compileValidator } from '../../wire/validate.ts'
import type { StoredBlock, StoredBlockHeader } from '../block-store.ts'
import type { FollowedEnvelope } from '../chain-node.ts'

/** The version both kinds of record carry; a node refuses another one. */
export const RECORD_VERSION = 1

const Hex32 = Type.String({ pattern: '^0x[0-9a-f]{64}$' })
const Count = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })

const GenesisRecordSchema = Type.Tuple([
  Type.Literal('perpd-genesis'),
  Type.Literal(RECORD_VERSION),
  Type.String({ description: 'the genesis document, JSON text as the block store keeps it' }),
  Hex32,
  Hex32,
])

const HeaderSchema = Type.Tuple([
  Count, // height
  Hex32, // parent digest
  Hex32, // digest
  Count, // timestamp_ms
  Count, // envelope count
  Count, // event count
  Hex32, // state root
])

const EnvelopeSchema = Type.Tuple([
  Hex32, // tx hash
  Type.String({ pattern: '^0x[0-9a-f]{40}$' }), // signer
  Count, // nonce
  Type.String({ minLength: 1, maxLength: 64 }), // action kind
  Type.String(), // action, JSON text as signed
  Type.String(), // signature, JSON text
  Type.Union([Type.Literal('accepted'), Type.Literal('kept-reject')]),
])

const BlockRecordSchema = Type.Tuple([Type.Literal('perpd-block'), Type.Literal(RECORD_VERSION), HeaderSchema, Type.Array(EnvelopeSchema)])

const genesisRecordValidator = compileValidator(GenesisRecordSchema)
const blockRecordValidator = compileValidator(BlockRecordSchema)

/** The genesis record: the document (JSON text), its state root and the genesis digest. */
export interface GenesisRecord {
  readonly genesisJson: string
  readonly genesisRoot: string
  readonly genesisDigest: string
}

/** A block record, decoded. */
export interface BlockRecord {
  readonly header: StoredBlockHeader
  readonly envelopes: FollowedEnvelope[]
}

/** A record that is not what its place in the stream says it must be. */
export class RecordError extends Error {}

export function encodeGenesisRecord(r: GenesisRecord): Uint8Array {
  return encodeCanonical(['perpd-genesis', RECORD_VERSION, r.genesisJson, r.genesisRoot, r.genesisDigest])
}

export function encodeBlockRecord(block: StoredBlock): Uint8Array {
  const h = block.header
  return encodeCanonical([
    'perpd-block',
    RECORD_VERSION,
    [h.height, h.parent, h.digest, h.timestampMs, h.envelopeCount, h.eventCount, h.stateRoot],
    block.envelopes.map((e) => [e.txHash, e.signer, e.nonce, e.actionKind, e.actionJson, e.signatureJson, e.status]),
  ])
}

/** 64-bit integers (block times) as numbers: the schemas bound every integer to 2^53 - 1. */
const unpackr = new Unpackr({ int64AsType: 'number' })

/** msgpack bytes decoded, or a RecordError. */
function decode(bytes: Uint8Array, what: string): unknown {
  try {
    return unpackr.unpack(bytes)
  } catch (err) {
    throw new RecordError(`${what} is not msgpack: ${(err as Error).message}`)
  }
}

export function decodeGenesisRecord(bytes: Uint8Array): GenesisRecord & { readonly genesis: Genesis } {
  const value = decode(bytes, 'the genesis record')
  const v = genesisRecordValidator.validate(value, 'genesis record')
  if (!v.ok) throw new RecordError(`${v.field}: ${v.message}`)
  const [, , genesisJson, genesisRoot, genesisDigest] = value as Static<typeof GenesisRecordSchema>
  let genesis: Genesis
  try {
    genesis = JSON.parse(genesisJson) as Genesis
  } catch (err) {
    throw new RecordError(`the genesis record's document is not JSON: ${(err as Error).message}`)
  }
  return { genesisJson, genesisRoot, genesisDigest, genesis }
}

/** The block record at the height `height`, or a RecordError. */
export function decodeBlockRecord(bytes: Uint8Array, height: number): BlockRecord {
  const value = decode(bytes, `the record of block ${height}`)
  const v = blockRecordValidator.validate(value, `block record ${height}`)
  if (!v.ok) throw new RecordError(`${v.field}: ${v.message}`)
  const [, , h, envelopes] = value as Static<typeof BlockRecordSchema>
  const [recordHeight, parent, digest, timestampMs, envelopeCount, eventCount, stateRoot] = h
  if (recordHeight !== height) throw new RecordError(`the record of block ${height} holds block ${recordHeight}`)
  if (envelopes.length !== envelopeCount)
    throw new RecordError(`the record of block ${height} holds ${envelopes.length} envelopes, its header ${envelopeCount}`)
  return {
    header: { height, parent, digest, timestampMs, envelopeCount, eventCount, stateRoot },
    envelopes: envelopes.map(([txHash, signer, nonce, actionKind, actionJson, signatureJson, status]) => ({
      txHash,
      signer,
      nonce,
      actionKind,
      actionJson,
      signatureJson,
      status,
    })),
  }
}
