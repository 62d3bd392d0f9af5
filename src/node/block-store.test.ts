// The block store's envelopes table has no index on tx hashes (block-store.ts ENVELOPES_COLUMNS): a
// store made with the older UNIQUE index is rebuilt without it when opened, its rows kept; hashes
// are then found by the scan of the newest blocks getTx does (envelopeInBlocksAfter).
import { Database } from 'bun:sqlite'
import { afterEach, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BlockStore, type StoredBlock } from './block-store.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

function block(height: number, envelopes: number): StoredBlock {
  return {
    header: {
      height,
      parent: hash(height + 1_000),
      digest: hash(height + 2_000),
      timestampMs: 1_700_000_000_000 + height,
      envelopeCount: envelopes,
      eventCount: 0,
      stateRoot: hash(height + 3_000),
    },
    envelopes: Array.from({ length: envelopes }, (_, i) => ({
      height,
      envelopeIdx: i,
      txHash: hash(height * 100 + i),
      signer: '0x00000000000000000000000000000000000000aa',
      nonce: height * 100 + i,
      actionKind: 'CancelAll',
      marketId: null,
      actionJson: '{"CancelAll":{}}',
      signatureJson: '{"r":"0x1","s":"0x2","v":27}',
      status: 'accepted' as const,
      reasonJson: null,
    })),
    events: [],
  }
}

const indexesOfEnvelopes = (dir: string) => {
  const db = new Database(join(dir, 'chain.sqlite'), { readonly: true })
  const names = db.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'envelopes'").all()
  db.close()
  return names.map((n) => n.name)
}

describe('block store without a tx-hash index', () => {
  test('a new store has none, and finds a hash in the blocks after a height', () => {
    const dir = mkdtempSync(join(tmpdir(), 'perpd-store-'))
    dirs.push(dir)
    const store = new BlockStore(dir)
    expect(store.rebuiltWithoutTxIndex).toBe(false)
    for (let h = 1; h <= 3; h++) store.commitBlock(block(h, 4))
    expect(store.envelopeInBlocksAfter(hash(203), 1)?.envelopeIdx).toBe(3)
    expect(store.envelopeInBlocksAfter(hash(203), 2)).toBeUndefined()
    expect(store.envelopeAt(2, 1)?.txHash).toBe(hash(201))
    expect(store.envelopeAt(2, 9)).toBeUndefined()
    store.close()
    expect(indexesOfEnvelopes(dir).filter((n) => n.startsWith('sqlite_autoindex'))).toEqual([])
  })

  test('an older store with the UNIQUE index is rebuilt without it, its rows kept, once', () => {
    // The table and rows as an older node wrote them.
    const older = mkdtempSync(join(tmpdir(), 'perpd-store-'))
    dirs.push(older)
    const raw = new Database(join(older, 'chain.sqlite'), { create: true })
    raw.exec(`CREATE TABLE envelopes (
      height INTEGER NOT NULL, envelope_idx INTEGER NOT NULL, tx_hash TEXT NOT NULL UNIQUE, signer TEXT NOT NULL,
      nonce INTEGER NOT NULL, action_kind TEXT NOT NULL, market_id INTEGER, action TEXT NOT NULL, signature TEXT NOT NULL,
      status TEXT NOT NULL, reason TEXT, PRIMARY KEY (height, envelope_idx)) WITHOUT ROWID`)
    raw.exec(
      `INSERT INTO envelopes VALUES (1, 0, '${hash(100)}', '0xaa', 1, 'CancelAll', NULL, '{"CancelAll":{}}', '{}', 'accepted', NULL)`,
    )
    raw.exec(
      `INSERT INTO envelopes VALUES (1, 1, '${hash(101)}', '0xaa', 2, 'CancelAll', NULL, '{"CancelAll":{}}', '{}', 'kept-reject', '{"code":"X"}')`,
    )
    raw.close()
    expect(indexesOfEnvelopes(older).some((n) => n.startsWith('sqlite_autoindex'))).toBe(true)

    const reopened = new BlockStore(older)
    expect(reopened.rebuiltWithoutTxIndex).toBe(true)
    expect(reopened.envelopesOf(1).map((e) => [e.txHash, e.status, e.reasonJson])).toEqual([
      [hash(100), 'accepted', null],
      [hash(101), 'kept-reject', '{"code":"X"}'],
    ])
    expect(reopened.envelopeInBlocksAfter(hash(101), 0)?.nonce).toBe(2)
    reopened.close()
    expect(indexesOfEnvelopes(older).filter((n) => n.startsWith('sqlite_autoindex'))).toEqual([])
    const again = new BlockStore(older)
    expect(again.rebuiltWithoutTxIndex).toBe(false)
    again.close()
  })
})
