// The stream's record codec (docs/replication.md#records) and the chain's stream names.
import { describe, expect, test } from 'bun:test'
import { encodeCanonical } from '../../lib/msgpack.ts'
import type { StoredBlock } from '../block-store.ts'
import { decodeBlockRecord, decodeGenesisRecord, encodeBlockRecord, encodeGenesisRecord, RecordError } from './block-record.ts'
import { chainStreamNames, heightOf, sequenceOf } from './chain-stream.ts'

const hex = (byte: string) => `0x${byte.repeat(32)}`
const block: StoredBlock = {
  header: {
    height: 7,
    parent: hex('01'),
    digest: hex('02'),
    timestampMs: 1_795_707_256_261,
    envelopeCount: 2,
    eventCount: 5,
    stateRoot: hex('03'),
  },
  envelopes: [0, 1].map((i) => ({
    height: 7,
    envelopeIdx: i,
    txHash: hex(i === 0 ? 'aa' : 'bb'),
    signer: `0x${'c'.repeat(40)}`,
    nonce: 1_795_707_256_000 + i,
    actionKind: 'PlaceOrder',
    marketId: 1,
    actionJson: '{"PlaceOrder":{"market_id":1,"side":"Bid","price":"64000","qty":"0.01"}}',
    signatureJson: '{"r":"0x1","s":"0x2","v":27}',
    status: i === 0 ? ('accepted' as const) : ('kept-reject' as const),
    reasonJson: i === 0 ? null : '{"code":"INSUFFICIENT_MARGIN"}',
  })),
  events: [],
}

describe('block records', () => {
  test('a block decodes to its header and its envelopes as signed, with their statuses', () => {
    const record = decodeBlockRecord(encodeBlockRecord(block), 7)
    expect(record.header).toEqual(block.header)
    expect(record.envelopes).toEqual(
      block.envelopes.map((e) => ({
        txHash: e.txHash,
        signer: e.signer,
        nonce: e.nonce,
        actionKind: e.actionKind,
        actionJson: e.actionJson,
        signatureJson: e.signatureJson,
        status: e.status,
      })),
    )
  })

  test('the encoding is canonical: the same block, the same bytes; events and reasons are not carried', () => {
    const other = {
      ...block,
      events: [{ height: 7, seq: 0, envelopeIdx: 0, kind: 'Exec', subKind: 'X', marketId: 1, account: null, bodyJson: '{}' }],
    }
    expect(encodeBlockRecord(other)).toEqual(encodeBlockRecord(block))
  })

  test('a record of another height, version or shape is refused with what is wrong', () => {
    expect(() => decodeBlockRecord(encodeBlockRecord(block), 8)).toThrow('the record of block 8 holds block 7')
    const bytes = encodeBlockRecord(block)
    expect(() => decodeBlockRecord(bytes.subarray(0, bytes.length - 3), 7)).toThrow(RecordError)
    expect(() => decodeBlockRecord(new Uint8Array([0xc1]), 7)).toThrow(RecordError)
    const h = block.header
    const header = [h.height, h.parent, h.digest, h.timestampMs, h.envelopeCount, h.eventCount, h.stateRoot]
    expect(() => decodeBlockRecord(encodeCanonical(['perpd-block', 2, header, []]), 7)).toThrow('block record 7.1')
    expect(() => decodeBlockRecord(encodeCanonical(['perpd-block', 1, [...header.slice(0, 6), 'root'], []]), 7)).toThrow(
      'block record 7.2.6',
    )
    // The header says two envelopes; the record holds none.
    expect(() => decodeBlockRecord(encodeCanonical(['perpd-block', 1, header, []]), 7)).toThrow('holds 0 envelopes, its header 2')
    expect(() => decodeBlockRecord(encodeCanonical(['perpd-genesis', 1, '{}', hex('01'), hex('02')]), 7)).toThrow(RecordError)
  })

  test('the genesis record carries the document as stored, its root and digest', () => {
    const genesisJson = JSON.stringify({ network: 'dev', accounts: [] })
    const record = decodeGenesisRecord(encodeGenesisRecord({ genesisJson, genesisRoot: hex('04'), genesisDigest: hex('05') }))
    expect(record).toEqual({ genesisJson, genesisRoot: hex('04'), genesisDigest: hex('05'), genesis: JSON.parse(genesisJson) })
    expect(() => decodeGenesisRecord(encodeBlockRecord(block))).toThrow(RecordError)
  })
})

describe('stream names', () => {
  test('named after the network and the genesis digest, valid for JetStream', () => {
    const names = chainStreamNames('perp main.net', `0x${'9f'.repeat(32)}`)
    expect(names).toEqual({
      stream: 'PERPD_perp_main_net_9f9f9f9f9f9f9f9f',
      subject: 'perpd.PERPD_perp_main_net_9f9f9f9f9f9f9f9f.blocks',
      leaseBucket: 'PERPD_perp_main_net_9f9f9f9f9f9f9f9f_lease',
    })
    expect(sequenceOf(0)).toBe(1)
    expect(heightOf(sequenceOf(41))).toBe(41)
  })
})
