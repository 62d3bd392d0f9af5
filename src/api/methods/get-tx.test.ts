// getTx without the history index (the block store has no tx-hash index): a transaction in the
// newest TX_SCAN_BLOCKS_MAX blocks is found by a scan of the store, an unknown hash on a short chain
// is null, and once the chain is longer than the scan a miss is an error to retry, not a wrong null.
// With a history index whose reads fail, the scan reads only the blocks above what the index had
// reached. With a history index running, the e2e tests (rpc-methods, foundation) find transactions
// through it.
import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEV_KEYS } from '../../../test/support/node-process.ts'
import { Signer } from '../../client/signer.ts'
import { ChainNode } from '../../node/chain-node.ts'
import { devGenesis } from '../../node/dev-genesis.ts'
import { startHistory } from '../history-link.ts'
import { chainMethods, TX_SCAN_BLOCKS_MAX } from './chain-methods.ts'
import { MethodError } from './registry.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'perpd-gettx-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
let clock = 1_700_000_000_000
const node = new ChainNode({ dataDir, genesis: devGenesis(), blockTimeMs: 200, now: () => (clock += 200), log: () => {} })
node.startManual()
const getTx = chainMethods.find((m) => m.name === 'getTx')!
const ctx = { node }
const call = (tx_hash: string) => getTx.handler(ctx, { tx_hash } as never)

describe('getTx without a history index', () => {
  const signer = new Signer(DEV_KEYS[1]!)
  const placed = node.submit(
    signer.sign({ PlaceOrder: { market_id: 1, side: 'Bid', price: '60000', qty: '0.01', tif: 'Gtc', reduce_only: false } }, 1, 'dev')
      .params,
  )
  node.produceBlock()

  test('finds a transaction of a recent block by a scan of the block store', async () => {
    const reply = await placed
    expect(reply.status).toBe('accepted')
    const txHash = (reply as { tx_hash: string }).tx_hash
    const found = (await call(txHash)) as { data: { tx_hash: string; height: number; events: unknown[] } }
    expect(found.data.tx_hash).toBe(txHash)
    expect(found.data.height).toBe(node.state.height)
    expect(found.data.events.length).toBeGreaterThan(0)
    // Any case of the hash.
    expect(((await call(txHash.toUpperCase().replace('0X', '0x'))) as { data: { tx_hash: string } }).data.tx_hash).toBe(txHash)
  })

  test('an unknown hash on a chain shorter than the scan is null', async () => {
    expect(await call(`0x${'ab'.repeat(32)}`)).toEqual({ data: null })
  })

  test('past the scan, a miss is HISTORY_UNAVAILABLE, not null', async () => {
    const reply = await placed
    const txHash = (reply as { tx_hash: string }).tx_hash
    for (let i = 0; i <= TX_SCAN_BLOCKS_MAX; i++) node.produceBlock()
    const err = await Promise.resolve(call(txHash)).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(MethodError)
    expect((err as MethodError).data).toMatchObject({ reason: 'HISTORY_UNAVAILABLE' })
    expect((err as MethodError).message).toContain('history index is not running')
  })
})

afterAll(() => node.stop())

describe('getTx while the history index cannot answer', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'perpd-gettx-history-'))
  let t = 1_700_000_000_000
  const indexed = new ChainNode({ dataDir: dir, genesis: devGenesis(), blockTimeMs: 200, now: () => (t += 200), log: () => {} })
  indexed.startManual()
  const history = await startHistory(indexed, { dataDir: dir, log: () => {} })
  afterAll(async () => {
    indexed.stop()
    await history.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  const signer = new Signer(DEV_KEYS[2]!)
  const order = (nonce: number) =>
    signer.sign({ PlaceOrder: { market_id: 1, side: 'Bid', price: '60000', qty: '0.01', tif: 'Gtc', reduce_only: false } }, nonce, 'dev')
      .params
  const txOf = async (reply: Promise<unknown>) => ((await reply) as { tx_hash: string }).tx_hash
  const getTxOf = (txHash: string) => getTx.handler({ node: indexed }, { tx_hash: txHash } as never)

  test('the index finds what it reached; once its reads fail, newer blocks are scanned and older ones are an error, not a scan', async () => {
    const first = indexed.submit(order(1))
    indexed.produceBlock()
    const firstHash = await txOf(first)
    const firstHeight = indexed.state.height
    for (let i = 0; i < 3; i++) indexed.produceBlock()
    const deadline = Date.now() + 20_000
    while ((await history.sync(indexed.state.height)).watermarks.ingest < indexed.state.height) {
      if (Date.now() > deadline) throw new Error('the history index did not reach the tip')
      await Bun.sleep(20)
    }
    expect(((await getTxOf(firstHash)) as { data: { height: number } }).data.height).toBe(firstHeight)

    const reached = history.progress.watermarks.ingest
    await history.stop()
    const later = indexed.submit(order(2))
    indexed.produceBlock()
    const laterHash = await txOf(later)
    // Above what the index reached: the scan finds it.
    expect(((await getTxOf(laterHash)) as { data: { height: number } }).data.height).toBe(indexed.state.height)
    // At or below it: the scan leaves those blocks to the index, which cannot answer.
    for (const hash of [firstHash, `0x${'cd'.repeat(32)}`]) {
      const err = await Promise.resolve(getTxOf(hash)).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(MethodError)
      expect((err as MethodError).data).toMatchObject({ reason: 'HISTORY_UNAVAILABLE' })
      expect((err as MethodError).message).toContain(`blocks ${reached + 1} to ${indexed.state.height}`)
    }
  }, 60_000)
})
